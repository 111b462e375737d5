// The console shell: header, screen tabs, the active screen, the status bar, help, modals
// (forms, pickers, dialogs, the new-device result) and the one key dispatcher driven by the
// keymap table.
import React, {useCallback, useEffect, useMemo, useRef, useState} from 'react';
import {Box, useApp, useInput, useStdout} from 'ink';
import {Text} from './SafeText.js';
import {ApiError, type Configuration, type ConfigurationUpdate, type FirezoneClient, type User} from '../api/index.js';
import {
  defaultsSpecs, diffConfigurations, parseEntryKey, diffUpdate, explainOverride, oidcFromValues, oidcInitial, oidcSpecs, providerUpdate, samlFromValues,
  samlInitial, samlSpecs, sectionInitial, sectionUpdate, securitySpecs, type ProviderKind, type ProviderOp, type Section,
} from '../state/configuration.js';
import {generateDeviceName} from '../common/names.js';
import {
  applyServerErrors, createForm, cycleChoice, editFocused, focusedSpec, focusFirstError, hasErrors, isDirty, moveFocus, setValue, str,
  toggle, validateForm, type FormState,
} from '../state/form.js';
import {editText, isPrintable} from '../state/textedit.js';
import {Poller, type PollStatus} from '../state/poller.js';
import {
  DEVICE_EDIT_NOTE, DEVICE_ERROR_ALIASES, deviceCreateBody, deviceEditInitial, deviceEditSpecs, deviceFormInitial, deviceFormSpecs,
  ruleBody, ruleFormInitial, ruleFormSpecs, userCreateBody, userFormSpecs, userUpdateBody,
} from '../state/provision.js';
import {buildSnapshot, type DeviceRow, type FetchedData, type Snapshot} from '../state/resources.js';
import {fetchAll} from '../state/fetch.js';
import {
  effectiveSelection, flipSort, initialListState, ListViewCache, moveCursor, nextSort, type ListUiState, type Move,
} from '../state/view.js';
import type {ListView} from '../state/list.js';
import {
  configWarnings, defaultConfigFileName, generateKeyPair, osc52Copy, renderClientConfig, writeConfigFile,
} from '../wireguard/index.js';
import {FormView} from './FormView.js';
import {Header} from './Header.js';
import {helpCapacity, helpLines, HelpOverlay} from './HelpOverlay.js';
import {actionFor, keyName, splitChunk, type Action, type Scope} from './keymap.js';
import {ConfirmDialog, DeviceResult, pickerEntries, UserPicker, type PickerState, type ResultState} from './Modals.js';
import {
  configurationLines, devicesScreen, rulesScreen, ruleSummary, SCREENS, usersScreen, type DetailLine, type ListScreenSpec, type ScreenId,
  type UserRow,
} from './screens.js';
import {StatusBar, type StatusMessage} from './StatusBar.js';
import {Table} from './table/Table.js';
import {MIN_COLUMNS, MIN_ROWS, useTerminalSize} from './terminal.js';
import {color} from './theme.js';
import {displayWidth, padEnd, truncate} from './text.js';
import {plainSafe} from '../common/display-safe.js';

export interface AppSettings {
  label: string;
  refreshSeconds: number;
  readOnly: boolean;
  insecure: boolean;
  /** Plain http:// to a host that is not loopback: the token crosses the network in clear. */
  plainHttp?: boolean;
  demo: boolean;
}

export type ConsoleClient = Pick<FirezoneClient,
  | 'listDevices' | 'listUsers' | 'listRules' | 'getConfiguration' | 'updateConfiguration'
  | 'createDevice' | 'updateDevice' | 'deleteDevice' | 'createUser' | 'updateUser' | 'deleteUser'
  | 'createRule' | 'updateRule' | 'deleteRule'>;

export interface AppProps {
  client: ConsoleClient;
  settings: AppSettings;
  /** Injected in tests; the real one writes to the terminal. */
  writeRaw?: (data: string) => void;
  /** The first poll's data when it was fetched before the UI loaded (cli.tsx, early.ts). */
  firstData?: Promise<FetchedData>;
}

type ListScreenId = Exclude<ScreenId, 'configuration'>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ScreenColumns = ReturnType<ListScreenSpec<any>['columns']>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const LIST_SPECS: Record<ListScreenId, ListScreenSpec<any>> = {devices: devicesScreen, users: usersScreen, rules: rulesScreen};

type FormPurpose =
  | {kind: 'user-create'}
  | {kind: 'user-edit'; user: User}
  | {kind: 'device-create'; ownerId: string | null}
  | {kind: 'device-edit'; deviceId: string}
  | {kind: 'rule-create'}
  | {kind: 'rule-edit'; ruleId: string}
  | {kind: 'config-section'; section: Section; opened: Configuration}
  | {kind: 'provider'; provider: ProviderKind; editId: string | null; opened: Configuration};

type PendingAction =
  | {kind: 'delete-user'; id: string; email: string}
  | {kind: 'delete-device'; id: string; name: string}
  | {kind: 'delete-rule'; id: string; summary: string}
  | {kind: 'role'; id: string; email: string; role: 'admin' | 'unprivileged'}
  | {kind: 'discard'}
  | {kind: 'quit'};

type FormModal = {kind: 'form'; purpose: FormPurpose; title: string; notes: string[]; form: FormState; picker: PickerState | null; confirm: PendingAction | null};

/**
 * Saving the configuration: the diff to confirm, then (if the record moved on the server since
 * the form opened) what changed there, with re-apply or reload. `build` recomputes the update
 * on top of any base, which is what makes re-applying possible.
 */
interface ConfigReview {
  kind: 'config-review';
  title: string;
  opened: Configuration;
  build: (base: Configuration) => ConfigurationUpdate;
  lines: string[];
  /** Set when the server's record changed since `opened`. */
  conflict: {current: Configuration; changes: string[]} | null;
  back: FormModal | null;
  saving: boolean;
}

type Modal =
  | FormModal
  | {kind: 'confirm'; text: string; detail?: string; action: PendingAction}
  | {kind: 'result'; result: ResultState}
  | ConfigReview;

interface UiState {
  screen: ScreenId;
  lists: Record<ListScreenId, ListUiState>;
  configEntry: string;
  configReveal: boolean;
  help: boolean;
  helpScroll: number;
}

const INITIAL_UI: UiState = {
  screen: 'devices',
  lists: {
    devices: initialListState(devicesScreen.defaultSort),
    users: initialListState(usersScreen.defaultSort),
    rules: initialListState(rulesScreen.defaultSort),
  },
  configEntry: 'defaults',
  configReveal: false,
  help: false,
  helpScroll: 0,
};

type UiAction =
  | {type: 'screen'; screen: ScreenId}
  | {type: 'help'; open: boolean}
  | {type: 'helpScroll'; scroll: number}
  | {type: 'list'; screen: ListScreenId; update: (s: ListUiState) => ListUiState}
  | {type: 'config'; entry?: string; reveal?: boolean};

function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'screen':
      return {...state, screen: action.screen, help: false};
    case 'help':
      return {...state, help: action.open, helpScroll: 0};
    case 'helpScroll':
      return {...state, helpScroll: action.scroll};
    case 'list':
      return {...state, lists: {...state.lists, [action.screen]: action.update(state.lists[action.screen])}};
    case 'config':
      return {...state, configEntry: action.entry ?? state.configEntry, configReveal: action.reveal ?? state.configReveal};
  }
}

const SCREEN_KEYS: Partial<Record<Action, ScreenId>> = {screen1: 'devices', screen2: 'users', screen3: 'rules', screen4: 'configuration'};

// Rows: header, tabs, screen info/filter line, status bar; plus the one spare row that keeps
// Ink 6 from clearing the whole screen on every frame (ink-6 notes §2.3).
const CHROME_ROWS = 4;

function errorText(err: unknown): string {
  return err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err);
}

export function App({client, settings, writeRaw, firstData}: AppProps): React.JSX.Element {
  const {exit} = useApp();
  const {stdout} = useStdout();
  const size = useTerminalSize();
  // UI state and modals live in refs first and in React state second: several keys can arrive
  // in one event and each must see what the previous one did (ink-6 notes §2.4).
  const uiRef = useRef<UiState>(INITIAL_UI);
  const [ui, setUi] = useState<UiState>(INITIAL_UI);
  const dispatch = useCallback((action: UiAction) => {
    uiRef.current = uiReducer(uiRef.current, action);
    setUi(uiRef.current);
  }, []);
  const modalRef = useRef<Modal | null>(null);
  const [modal, setModalState] = useState<Modal | null>(null);
  const setModal = useCallback((next: Modal | null | ((current: Modal | null) => Modal | null)) => {
    modalRef.current = typeof next === 'function' ? next(modalRef.current) : next;
    setModalState(modalRef.current);
  }, []);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [pollStatus, setPollStatus] = useState<PollStatus | null>(null);
  const [message, setMessage] = useState<StatusMessage | null>(null);
  const pollerRef = useRef<Poller<Snapshot> | null>(null);
  const snapshotRef = useRef<Snapshot | null>(null);
  const caches = useMemo(() => ({
    devices: new ListViewCache(devicesScreen.getId),
    users: new ListViewCache(usersScreen.getId),
    rules: new ListViewCache(rulesScreen.getId),
  }), []);
  const columnsCache = useRef(new WeakMap<Snapshot, Map<ListScreenId, ScreenColumns>>());

  /** Everything the screen shows that follows from the UI state and the data; memoised by the caches. */
  const derive = useCallback((u: UiState, snap: Snapshot | null) => {
    const ls: ListScreenId | null = u.screen === 'configuration' ? null : u.screen;
    const sp = ls ? LIST_SPECS[ls] : null;
    const st = ls ? u.lists[ls] : null;
    let cols: ScreenColumns = [];
    if (ls && sp && snap) {
      let perSnap = columnsCache.current.get(snap);
      if (!perSnap) {
        perSnap = new Map();
        columnsCache.current.set(snap, perSnap);
      }
      cols = perSnap.get(ls) ?? sp.columns(snap);
      perSnap.set(ls, cols);
    }
    const v: ListView<unknown> | null = sp && snap && st && ls ? (caches[ls] as ListViewCache<unknown>).get(sp.items(snap), st, cols) : null;
    const sel = v && st ? effectiveSelection(v, st) : {id: null, index: -1};
    const item = sp && snap && st?.detailId ? sp.items(snap).find((x: unknown) => sp.getId(x) === st.detailId) ?? null : null;
    return {listScreen: ls, spec: sp, listState: st, columns: cols, view: v, selection: sel, detailItem: item};
  }, [caches]);

  useEffect(() => {
    let prefetched = firstData ?? null;
    const poller = new Poller<Snapshot>({
      intervalMs: settings.refreshSeconds * 1000,
      fetch: async () => {
        const pending = prefetched;
        prefetched = null;
        const data = await (pending ?? fetchAll(client));
        // Derivation happens here, once per cycle, so a render never redoes it.
        return buildSnapshot(data, snapshotRef.current, Date.now());
      },
      onData: (next) => {
        snapshotRef.current = next;
        setSnapshot(next);
        if (next.issues.length > 0) {
          const first = next.issues[0]!;
          setMessage({tone: 'warning', text: `Unexpected data from the server: ${first.path}: ${first.message}${next.issues.length > 1 ? ` (+${next.issues.length - 1} more)` : ''}; the rest is shown`});
        } else {
          setMessage((m) => (m && m.tone === 'error' && m.text.startsWith('Refresh failed') ? {tone: 'ok', text: 'Connection restored'} : m));
        }
      },
      onStatus: (status) => {
        setPollStatus(status);
        if (status.lastError && status.failures > 0 && !status.inFlight) {
          setMessage({tone: 'error', text: `Refresh failed: ${errorText(status.lastError)}`});
        }
      },
    });
    pollerRef.current = poller;
    poller.start();
    return () => poller.stop();
  }, [client, settings.refreshSeconds]);

  // Live updates pause while help, a form or a dialog is open, so nothing moves under the admin.
  useEffect(() => {
    pollerRef.current?.setHeld(ui.help || modal !== null);
  }, [ui.help, modal]);

  const write = useCallback((data: string) => (writeRaw ? writeRaw(data) : stdout.write(data)), [writeRaw, stdout]);

  // Test hook for the crash path (test/e2e/devices.e2e.test.ts): the terminal must come back
  // and the error must be printed after it has.
  if (process.env.FZ_CONSOLE_TEST_CRASH === 'render' && snapshot) throw new Error('injected render error (FZ_CONSOLE_TEST_CRASH=render)');
  const bodyHeight = Math.max(1, size.rows - 1 - CHROME_ROWS);
  const {listScreen, spec, listState, columns, view, selection, detailItem} = derive(ui, snapshot);

  const copy = useCallback((label: string, value: string) => {
    // The clipboard gets what the screen shows: control characters as visible escapes, never raw.
    const {text, escaped} = plainSafe(value);
    const result = osc52Copy(text, process.env);
    if (!result.ok) {
      setMessage({tone: 'error', text: result.message});
      return;
    }
    write(result.sequence);
    setMessage(escaped > 0
      ? {tone: 'warning', text: `Copied ${label} with ${escaped} control character${escaped === 1 ? '' : 's'} shown as escapes (OSC 52)`}
      : {tone: 'ok', text: `Copied ${label} to the clipboard (OSC 52: your terminal must allow it)`});
  }, [write]);

  // ---- writes ------------------------------------------------------------------------------

  const refusedReadOnly = (what: string): boolean => {
    if (!settings.readOnly) return false;
    setMessage({tone: 'warning', text: `Read-only mode: ${what} is disabled (started with --read-only)`});
    return true;
  };

  const afterWrite = (text: string) => {
    setMessage({tone: 'ok', text});
    pollerRef.current?.refreshNow();
  };

  const openForm = (purpose: FormPurpose) => {
    const snap = snapshotRef.current;
    const emailOf = (id: string) => snap?.usersById.get(id)?.email ?? id;
    switch (purpose.kind) {
      case 'user-create':
        setModal({kind: 'form', purpose, title: 'Add user', notes: [], form: createForm(userFormSpecs('create'), {role: 'unprivileged'}), picker: null, confirm: null});
        return;
      case 'user-edit':
        setModal({kind: 'form', purpose, title: `Edit ${purpose.user.email}`, notes: ['Change the email or enter a new password below.'],
          form: createForm(userFormSpecs('edit'), {email: purpose.user.email}), picker: null, confirm: null});
        return;
      case 'device-create': {
        const specs = deviceFormSpecs(snap?.configuration ?? null, purpose.ownerId === null)
          .map((s) => (s.key === 'owner' ? {...s, display: (v: string | boolean) => emailOf(String(v))} : s));
        const title = purpose.ownerId ? `Add device for ${emailOf(purpose.ownerId)}` : 'Add device';
        setModal({kind: 'form', purpose, title, notes: ['The WireGuard key pair is generated here; only the public key is sent to the server.'],
          form: createForm(specs, deviceFormInitial(generateDeviceName(Math.random), purpose.ownerId)), picker: null, confirm: null});
        return;
      }
      case 'device-edit': {
        const row = snap?.devices.find((d) => d.id === purpose.deviceId);
        if (!row) return;
        setModal({kind: 'form', purpose, title: `Edit device ${row.device.name} (${row.ownerEmail})`, notes: [DEVICE_EDIT_NOTE],
          form: createForm(deviceEditSpecs(), deviceEditInitial(row.device)), picker: null, confirm: null});
        return;
      }
      case 'rule-create':
      case 'rule-edit': {
        const rule = purpose.kind === 'rule-edit' ? snap?.rules.find((r) => r.id === purpose.ruleId) ?? null : null;
        if (purpose.kind === 'rule-edit' && !rule) return;
        const specs = ruleFormSpecs().map((s) => (s.key === 'user' ? {...s, display: (v: string | boolean) => emailOf(String(v))} : s));
        setModal({kind: 'form', purpose, title: rule ? `Edit rule ${ruleSummary(rule)}` : 'Add rule',
          notes: ['Rules apply to all devices unless bound to a user. Accept wins over drop; per-user rules are checked first.'],
          form: createForm(specs, ruleFormInitial(rule)), picker: null, confirm: null});
      }
    }
  };

  const submitForm = async (m: Extract<Modal, {kind: 'form'}>) => {
    const checked = validateForm(m.form);
    if (!hasErrors(checked) && (m.purpose.kind === 'config-section' || m.purpose.kind === 'provider')) {
      const build = configBuild({...m, form: checked});
      const opened = m.purpose.opened;
      const update = build ? build(opened) : {};
      const lines = diffUpdate(opened, update);
      if (!build || lines.length === 0) {
        setModal(null);
        setMessage({tone: 'info', text: 'Nothing changed'});
        return;
      }
      setModal({kind: 'config-review', title: 'Save these changes to the configuration?', opened, build, lines, conflict: null,
        back: {...m, form: checked}, saving: false});
      return;
    }
    if (hasErrors(checked)) {
      const focused = focusFirstError(checked);
      setModal({...m, form: focused});
      setMessage({tone: 'error', text: `Fix the form: ${Object.entries(focused.errors).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ')}`});
      return;
    }
    const values = checked.values;
    setModal({...m, form: {...checked, submitting: true}});
    setMessage({tone: 'info', text: 'Saving…'});
    const fail = (err: unknown, aliases = {}) => {
      setModal((current) => {
        if (!current || current.kind !== 'form') return current;
        const form = err instanceof ApiError && err.kind === 'validation'
          ? applyServerErrors({...current.form, submitting: false}, err.fieldErrors, aliases)
          : {...current.form, submitting: false};
        return {...current, form};
      });
      setMessage({tone: 'error', text: errorText(err)});
    };
    const p = m.purpose;
    try {
      switch (p.kind) {
        case 'user-create': {
          const created = await client.createUser(userCreateBody(values));
          setModal(null);
          afterWrite(`User created successfully: ${created.data.email} (${created.data.role})`);
          return;
        }
        case 'user-edit': {
          const body = userUpdateBody(values, p.user);
          if (Object.keys(body).length === 0) {
            setModal(null);
            setMessage({tone: 'info', text: 'Nothing changed'});
            return;
          }
          await client.updateUser(p.user.id, body);
          setModal(null);
          afterWrite('User updated successfully.');
          return;
        }
        case 'device-create': {
          const ownerId = p.ownerId ?? str(values, 'owner');
          const keys = generateKeyPair();
          let created;
          try {
            created = await client.createDevice(deviceCreateBody(values, ownerId, keys.publicKey));
          } catch (err) {
            fail(err, DEVICE_ERROR_ALIASES);
            return;
          }
          const device = created.data;
          const ownerEmail = snapshotRef.current?.usersById.get(ownerId)?.email ?? ownerId;
          setModal({kind: 'result', result: {
            deviceName: device.name, ownerEmail,
            config: renderClientConfig(device, {privateKey: keys.privateKey}),
            warnings: configWarnings(device), view: 'config', path: null, pathCursor: 0, confirmOverwrite: false, confirmLeave: false, saved: null,
          }});
          setMessage({tone: 'ok', text: `Device added! ${device.name} (${device.ipv4 ?? device.ipv6 ?? 'no address'}) for ${ownerEmail}`});
          return;
        }
        case 'device-edit': {
          const name = str(values, 'name').trim();
          const description = str(values, 'description').trim();
          await client.updateDevice(p.deviceId, {name, description});
          setModal(null);
          afterWrite(`Device updated: ${name}`);
          return;
        }
        case 'config-section':
        case 'provider':
          return;
        case 'rule-create':
        case 'rule-edit': {
          const body = ruleBody(values);
          const saved = p.kind === 'rule-create' ? await client.createRule(body) : await client.updateRule(p.ruleId, body);
          setModal(null);
          afterWrite(`Rule ${p.kind === 'rule-create' ? 'added' : 'updated'}: ${ruleSummary(saved.data)}`);
          return;
        }
      }
    } catch (err) {
      fail(err);
    }
  };

  const runPending = async (action: PendingAction) => {
    try {
      switch (action.kind) {
        case 'delete-user':
          await client.deleteUser(action.id);
          afterWrite(`User deleted successfully: ${action.email}`);
          break;
        case 'delete-device':
          await client.deleteDevice(action.id);
          afterWrite(`Device deleted: ${action.name}`);
          break;
        case 'delete-rule':
          await client.deleteRule(action.id);
          afterWrite(`Rule deleted: ${action.summary}`);
          break;
        case 'role':
          await client.updateUser(action.id, {role: action.role});
          afterWrite(`User updated successfully: ${action.email} is now ${action.role}`);
          break;
        case 'discard':
        case 'quit':
          break;
      }
    } catch (err) {
      setMessage({tone: 'error', text: errorText(err)});
    }
  };

  const askDelete = (screen: ListScreenId, item: unknown) => {
    const snap = snapshotRef.current;
    if (!snap) return;
    if (screen === 'devices') {
      if (refusedReadOnly('deleting devices')) return;
      const row = item as DeviceRow;
      setModal({kind: 'confirm', text: `Delete device ${row.device.name} of ${row.ownerEmail}?`,
        detail: 'This immediately disconnects the device and removes all its data. [y/N]',
        action: {kind: 'delete-device', id: row.id, name: row.device.name}});
    } else if (screen === 'users') {
      if (refusedReadOnly('deleting users')) return;
      const u = (item as UserRow).user;
      const devices = snap.deviceCountByUser.get(u.id) ?? 0;
      const rules = snap.ruleCountByUser.get(u.id) ?? 0;
      setModal({kind: 'confirm',
        text: `Delete user ${u.email}? This also deletes ${devices} device${devices === 1 ? '' : 's'} and ${rules} rule${rules === 1 ? '' : 's'}. [y/N]`,
        detail: 'Their active VPN sessions drop at once.', action: {kind: 'delete-user', id: u.id, email: u.email}});
    } else {
      if (refusedReadOnly('deleting rules')) return;
      const r = item as Parameters<typeof ruleSummary>[0];
      setModal({kind: 'confirm', text: `Delete rule ${ruleSummary(r)}? [y/N]`, action: {kind: 'delete-rule', id: r.id, summary: ruleSummary(r)}});
    }
  };

  const askRole = (row: UserRow) => {
    if (refusedReadOnly('changing roles')) return;
    const role = row.user.role === 'admin' ? 'unprivileged' : 'admin';
    setModal({kind: 'confirm', text: role === 'admin'
      ? `Promote ${row.user.email} to admin? This will give admin permissions to the user. [y/N]`
      : `Demote ${row.user.email} to unprivileged? This will remove admin permissions from the user. [y/N]`,
    action: {kind: 'role', id: row.user.id, email: row.user.email, role}});
  };

  const newItem = (screen: ListScreenId, ownerId: string | null) => {
    if (screen === 'users') {
      if (!refusedReadOnly('creating users')) openForm({kind: 'user-create'});
    } else if (screen === 'devices') {
      if (!refusedReadOnly('creating devices')) openForm({kind: 'device-create', ownerId});
    } else if (!refusedReadOnly('creating rules')) {
      openForm({kind: 'rule-create'});
    }
  };

  const editItem = (screen: ListScreenId, item: unknown) => {
    if (screen === 'users') {
      if (!refusedReadOnly('editing users')) openForm({kind: 'user-edit', user: (item as UserRow).user});
    } else if (screen === 'devices') {
      if (!refusedReadOnly('editing devices')) openForm({kind: 'device-edit', deviceId: (item as DeviceRow).id});
    } else if (!refusedReadOnly('editing rules')) {
      openForm({kind: 'rule-edit', ruleId: (item as {id: string}).id});
    }
  };

  // ---- configuration -------------------------------------------------------------------------

  const configAction = (c: Configuration, entry: string, action: 'edit' | 'new' | 'delete') => {
    if (refusedReadOnly('changing the configuration')) return;
    const parsed = parseEntryKey(entry);
    const kind = parsed.kind;
    const id = parsed.kind === 'oidc' || parsed.kind === 'saml' ? parsed.id : null;
    const providerKind: ProviderKind | null = kind.startsWith('oidc') ? 'oidc' : kind.startsWith('saml') ? 'saml' : null;
    if (action === 'delete') {
      if (!providerKind || id === null) {
        setMessage({tone: 'info', text: 'Only providers can be deleted; move the cursor onto one'});
        return;
      }
      const op: ProviderOp = {kind: providerKind, op: 'delete', id};
      const build = (base: Configuration) => providerUpdate(base, op);
      setModal({kind: 'config-review', title: `Delete ${providerKind === 'oidc' ? 'OIDC' : 'SAML'} provider ${id}? Users signing in through it lose that way in.`,
        opened: c, build, lines: diffUpdate(c, build(c)), conflict: null, back: null, saving: false});
      return;
    }
    if (kind === 'defaults' || kind === 'security') {
      if (action === 'new') return;
      const section = kind as Section;
      setModal({kind: 'form', purpose: {kind: 'config-section', section, opened: c},
        title: section === 'defaults' ? 'Client defaults' : 'Security', form: createForm(section === 'defaults' ? defaultsSpecs() : securitySpecs(), sectionInitial(section, c)),
        notes: section === 'defaults' ? ['Devices that use a default pick up a change at once (their next config shows it).']
          : ['Saving shows what changes and asks before anything is sent.'],
        picker: null, confirm: null});
      return;
    }
    if (!providerKind) return;
    const editId = action === 'edit' && id !== null ? id : null;
    if (providerKind === 'oidc') {
      const existing = editId ? c.openid_connect_providers.find((p) => p.id === editId) ?? null : null;
      setModal({kind: 'form', purpose: {kind: 'provider', provider: 'oidc', editId, opened: c},
        title: existing ? `OIDC provider ${existing.id}` : 'Add OpenID Connect provider', form: createForm(oidcSpecs('<EXTERNAL_URL>/'), oidcInitial(existing)),
        notes: ['The whole provider list is sent on save (Firezone replaces it wholesale); other providers are kept as they are on the server.'],
        picker: null, confirm: null});
    } else {
      const existing = editId ? c.saml_identity_providers.find((p) => p.id === editId) ?? null : null;
      setModal({kind: 'form', purpose: {kind: 'provider', provider: 'saml', editId, opened: c},
        title: existing ? `SAML provider ${existing.id}` : 'Add SAML identity provider', form: createForm(samlSpecs(), samlInitial(existing)),
        notes: ['The whole provider list is sent on save (Firezone replaces it wholesale); other providers are kept as they are on the server.'],
        picker: null, confirm: null});
    }
  };

  const configBuild = (m: FormModal): ((base: Configuration) => ConfigurationUpdate) | null => {
    const p = m.purpose;
    if (p.kind === 'config-section') {
      const update = sectionUpdate(p.section, m.form.values, m.form.initial);
      return () => update;
    }
    if (p.kind === 'provider') {
      const provider = p.provider === 'oidc' ? oidcFromValues(m.form.values) : samlFromValues(m.form.values);
      const op: ProviderOp = p.editId === null ? {kind: p.provider, op: 'add', provider} : {kind: p.provider, op: 'edit', id: p.editId, provider};
      return (base) => providerUpdate(base, op);
    }
    return null;
  };

  /** Maps a configuration 422 onto the form that produced it (nested provider paths included). */
  const configErrorsToForm = (form: FormModal, err: ApiError, sent: ConfigurationUpdate): FormModal => {
    const p = form.purpose;
    const mapped: Record<string, string[]> = {};
    for (const [path, messages] of Object.entries(err.fieldErrors)) {
      const withHelp = messages.map((msg) => {
        const why = explainOverride(msg);
        return why ? `${msg}. ${why}` : msg;
      });
      const nested = /^(openid_connect_providers|saml_identity_providers)\[(\d+)\]\.(.+)$/.exec(path);
      if (nested && p.kind === 'provider') {
        const list = (nested[1] === 'openid_connect_providers' ? sent.openid_connect_providers : sent.saml_identity_providers) ?? [];
        const mine = p.editId ?? str(form.form.values, 'id').trim();
        const sentProvider = list[Number(nested[2])];
        mapped[sentProvider && sentProvider.id === mine ? nested[3]! : `${nested[1]}[${nested[2]}] (${sentProvider?.id ?? '?'}).${nested[3]}`] = withHelp;
      } else if (p.kind === 'config-section' && path === 'vpn_session_duration') {
        mapped.session_seconds = withHelp;
      } else {
        mapped[path] = withHelp;
      }
    }
    return {...form, form: applyServerErrors({...form.form, submitting: false}, mapped)};
  };

  const saveConfig = async (review: ConfigReview) => {
    setModal({...review, saving: true});
    setMessage({tone: 'info', text: 'Checking that the configuration has not changed meanwhile…'});
    try {
      // The lost-update guard: 0.7.36 has no conditional update, so re-read right before writing.
      const current = (await client.getConfiguration()).data;
      const base = review.conflict ? review.conflict.current : review.opened;
      if (current.updated_at !== base.updated_at) {
        setModal({...review, saving: false, conflict: {current, changes: diffConfigurations(base, current)}});
        setMessage({tone: 'warning', text: 'The configuration changed on the server since you opened it: nothing was saved'});
        return;
      }
      const update = review.build(current);
      const saved = await client.updateConfiguration(update);
      setModal(null);
      afterWrite(`Configuration saved (${diffUpdate(current, update).length} change${diffUpdate(current, update).length === 1 ? '' : 's'}); updated ${saved.data.updated_at}`);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'validation' && review.back) {
        const sent = review.build(review.conflict?.current ?? review.opened);
        setModal(configErrorsToForm(review.back, err, sent));
      } else {
        setModal({...review, saving: false});
      }
      setMessage({tone: 'error', text: errorText(err)});
    }
  };

  const handleReviewKey = (m: ConfigReview, name: string) => {
    if (m.saving) return;
    const action = actionFor(['dialog'], name);
    if (m.conflict) {
      if (action === 'reapply') {
        const current = m.conflict.current;
        setModal({...m, opened: current, conflict: null, lines: diffUpdate(current, m.build(current))});
      } else if (action === 'reload') {
        setModal(null);
        pollerRef.current?.refreshNow();
        setMessage({tone: 'info', text: 'Your edit was dropped; the configuration is reloaded from the server'});
      } else if (action === 'cancel') {
        setModal(m.back);
      }
      return;
    }
    if (action === 'confirm') void saveConfig(m);
    else if (action === 'cancel') setModal(m.back);
  };

  // ---- keys --------------------------------------------------------------------------------

  const bodyHeightRef = useRef(bodyHeight);
  bodyHeightRef.current = bodyHeight;
  const sizeRef = useRef(size);
  sizeRef.current = size;

  const handleModalKey = (m: Modal, input: string, name: string) => {
    if (m.kind === 'confirm') {
      const action = actionFor(['dialog'], name);
      if (action === 'confirm') {
        setModal(null);
        if (m.action.kind === 'quit') exit();
        else void runPending(m.action);
      } else if (action === 'cancel') {
        setModal(null);
        setMessage({tone: 'info', text: 'Cancelled'});
      }
      return;
    }
    if (m.kind === 'result') {
      handleResultKey(m, input, name);
      return;
    }
    if (m.kind === 'config-review') {
      handleReviewKey(m, name);
      return;
    }
    // form
    if (m.form.submitting) return;
    if (m.confirm) {
      if (name === 'y') {
        setModal(null);
        if (m.confirm.kind === 'quit') exit();
        else setMessage({tone: 'info', text: 'Changes discarded'});
      } else {
        setModal({...m, confirm: null});
      }
      return;
    }
    if (m.picker) {
      handlePickerKey(m, m.picker, input, name);
      return;
    }
    const action = actionFor(['form'], name);
    const spec0 = focusedSpec(m.form);
    const textField = spec0 && (spec0.kind === 'text' || spec0.kind === 'secret');
    if (textField && !['nextField', 'prevField', 'pick', 'save', 'cancel'].includes(action ?? '') && name !== 'ctrl+c') {
      const edited = editFocused(m.form, name, input);
      if (edited) setModal({...m, form: edited});
      return;
    }
    const close = (kind: 'discard' | 'quit') => {
      if (isDirty(m.form)) setModal({...m, confirm: {kind}});
      else if (kind === 'quit') exit();
      else setModal(null);
    };
    switch (action) {
      case 'nextField': setModal({...m, form: moveFocus(m.form, 1)}); return;
      case 'prevField': setModal({...m, form: moveFocus(m.form, -1)}); return;
      case 'toggle': if (!textField) setModal({...m, form: toggle(m.form)}); return;
      case 'choiceNext': if (!textField) setModal({...m, form: cycleChoice(m.form, 1)}); return;
      case 'choicePrev': if (!textField) setModal({...m, form: cycleChoice(m.form, -1)}); return;
      case 'pick':
        if (spec0?.kind === 'picker') setModal({...m, picker: {filter: '', index: 0}});
        else setModal({...m, form: moveFocus(m.form, 1)});
        return;
      case 'save': void submitForm(m); return;
      case 'cancel': close('discard'); return;
      default:
        if (name === 'ctrl+c') exit();
        else if (name === 'q' && !textField) close('quit');
    }
  };

  const handlePickerKey = (m: Extract<Modal, {kind: 'form'}>, picker: PickerState, input: string, name: string) => {
    const users = snapshotRef.current?.users ?? [];
    const allowNone = m.purpose.kind === 'rule-create' || m.purpose.kind === 'rule-edit';
    const entries = pickerEntries(users, picker, allowNone);
    const action = actionFor(['picker'], name);
    const key = focusedSpec(m.form)?.key ?? '';
    if (action === 'up') setModal({...m, picker: {...picker, index: Math.max(0, picker.index - 1)}});
    else if (action === 'down') setModal({...m, picker: {...picker, index: Math.min(Math.max(0, entries.length - 1), picker.index + 1)}});
    else if (action === 'pick') {
      const chosen = entries[Math.min(picker.index, entries.length - 1)];
      if (chosen === undefined) return;
      setModal({...m, picker: null, form: moveFocus(setValue(m.form, key, chosen), 1)});
    } else if (action === 'cancel') setModal({...m, picker: null});
    else if (name === 'backspace') setModal({...m, picker: {filter: [...picker.filter].slice(0, -1).join(''), index: 0}});
    else if (name === 'ctrl+c') exit();
    else if (isPrintable(input)) setModal({...m, picker: {filter: picker.filter + input, index: 0}});
  };

  const handleResultKey = (m: Extract<Modal, {kind: 'result'}>, input: string, name: string) => {
    const r = m.result;
    const update = (patch: Partial<ResultState>) => setModal({kind: 'result', result: {...r, ...patch}});
    if (r.path !== null) {
      if (r.confirmOverwrite) {
        if (name === 'y') void writeResult(r, true);
        else update({confirmOverwrite: false});
      } else if (name === 'esc') update({path: null});
      else if (name === 'enter') void writeResult(r, false);
      else {
        const edited = editText({value: r.path, cursor: r.pathCursor}, name, input);
        if (edited) update({path: edited.value, pathCursor: edited.cursor});
      }
      return;
    }
    if (r.confirmLeave) {
      if (name === 'y') {
        setModal(null);
        afterWrite(`Device ${r.deviceName} created`);
      } else update({confirmLeave: false});
      return;
    }
    switch (actionFor(['result'], name)) {
      case 'writeFile': {
        const path = defaultConfigFileName(r.deviceName);
        update({path, pathCursor: [...path].length});
        return;
      }
      case 'copyConfig': copy('the client config', r.config); return;
      case 'qr': update({view: r.view === 'qr' ? 'config' : 'qr'}); return;
      case 'done': update({confirmLeave: true}); return;
      default:
        if (name === 'ctrl+c') exit();
    }
  };

  const writeResult = async (r: ResultState, overwrite: boolean) => {
    if (r.path === null) return;
    const result = await writeConfigFile(r.path, r.config, {overwrite});
    if (result.ok) {
      setModal({kind: 'result', result: {...r, path: null, confirmOverwrite: false, saved: result.path}});
      setMessage({tone: 'ok', text: `Wrote ${result.path} (mode 0600)`});
    } else if (result.reason === 'exists') {
      setModal({kind: 'result', result: {...r, confirmOverwrite: true}});
      setMessage({tone: 'warning', text: result.message});
    } else {
      setMessage({tone: 'error', text: result.message});
    }
  };

  const handleKey = useCallback((input: string, name: string) => {
    const s = uiRef.current;
    const snap = snapshotRef.current;
    const m = modalRef.current;
    const {view: v, selection: sel, detailItem: item, spec: sp, listScreen: ls, columns: cols} = derive(s, snap);
    if (m) {
      handleModalKey(m, input, name);
      return;
    }
    const list = ls ? s.lists[ls] : null;
    const filtering = Boolean(list?.filtering);
    const detail = Boolean(list?.detailId) || s.screen === 'configuration';
    const scopes: Scope[] = s.help ? ['help', 'global'] : filtering ? ['filter'] : detail ? ['detail', 'global'] : ['list', 'global'];
    const action = actionFor(scopes, name);
    const updateList = (update: (st: ListUiState) => ListUiState) => {
      if (ls) dispatch({type: 'list', screen: ls, update});
    };

    if (filtering && ls) {
      if (action === 'filterAccept') updateList((st) => ({...st, filtering: false}));
      else if (action === 'filterClear') updateList((st) => ({...st, filtering: false, filter: ''}));
      else if (name === 'backspace') updateList((st) => ({...st, filter: [...st.filter].slice(0, -1).join('')}));
      else if (name === 'ctrl+c') exit();
      else if (name === 'up' || name === 'down') {
        if (v) updateList((st) => moveCursor(v, st, name === 'up' ? -1 : 1));
      } else if (isPrintable(input)) updateList((st) => ({...st, filter: st.filter + input}));
      return;
    }

    if (s.help) {
      const maxScroll = Math.max(0, helpLines().length - helpCapacity(sizeRef.current.columns, bodyHeightRef.current));
      const page = Math.max(1, bodyHeightRef.current - 2);
      const scrollTo = (n: number) => dispatch({type: 'helpScroll', scroll: Math.max(0, Math.min(maxScroll, n))});
      if (action === 'help' || action === 'back') dispatch({type: 'help', open: false});
      else if (action === 'quit' || action === 'quitNow') exit();
      else if (action === 'down') scrollTo(s.helpScroll + 1);
      else if (action === 'up') scrollTo(s.helpScroll - 1);
      else if (action === 'pageDown') scrollTo(s.helpScroll + page);
      else if (action === 'pageUp') scrollTo(s.helpScroll - page);
      return;
    }

    const screenTarget = action ? SCREEN_KEYS[action] : undefined;
    if (screenTarget) {
      dispatch({type: 'screen', screen: screenTarget});
      return;
    }
    const pageSize = Math.max(1, bodyHeightRef.current - 2);
    const moveBy = (move: Move) => {
      if (v) updateList((st) => moveCursor(v, st, move));
    };
    switch (action) {
      case 'nextScreen':
      case 'prevScreen': {
        const i = SCREENS.findIndex((x) => x.id === s.screen);
        const next = SCREENS[(i + (action === 'nextScreen' ? 1 : SCREENS.length - 1)) % SCREENS.length]!;
        dispatch({type: 'screen', screen: next.id});
        return;
      }
      case 'help':
        dispatch({type: 'help', open: true});
        return;
      case 'quit':
      case 'quitNow':
        exit();
        return;
      case 'refresh':
        pollerRef.current?.refreshNow();
        setMessage({tone: 'info', text: 'Refreshing…'});
        return;
      case 'pause': {
        const poller = pollerRef.current;
        if (!poller) return;
        poller.togglePause();
        setMessage({tone: 'info', text: poller.current.paused ? 'Live updates paused (p resumes)' : 'Live updates resumed'});
        return;
      }
      case 'back':
        if (s.screen === 'configuration') return;
        if (list?.detailId) updateList((st) => ({...st, detailId: null, detailScroll: 0, reveal: false}));
        else if (list?.filter) updateList((st) => ({...st, filter: ''}));
        return;
      default:
        break;
    }

    if (s.screen === 'configuration') {
      const c = snap?.configuration ?? null;
      const entries = configurationLines(c, Date.now(), s.configReveal).flatMap((l) => (l.entry ? [l.entry] : []));
      const at = Math.max(0, entries.indexOf(s.configEntry));
      if (action === 'up') dispatch({type: 'config', entry: entries[Math.max(0, at - 1)] ?? 'defaults'});
      else if (action === 'down') dispatch({type: 'config', entry: entries[Math.min(entries.length - 1, at + 1)] ?? 'defaults'});
      else if (action === 'reveal') dispatch({type: 'config', reveal: !s.configReveal});
      else if (c && (action === 'edit' || action === 'new' || action === 'delete')) configAction(c, entries[at] ?? 'defaults', action);
      return;
    }
    if (!ls || !sp) return;

    if (list?.detailId) {
      switch (action) {
        case 'up': updateList((st) => ({...st, detailScroll: Math.max(0, st.detailScroll - 1)})); return;
        case 'down': updateList((st) => ({...st, detailScroll: st.detailScroll + 1})); return;
        case 'reveal': updateList((st) => ({...st, reveal: !st.reveal})); return;
        case 'copy': {
          const value = item ? sp.copyValue(item) : null;
          if (value) copy(value.label, value.value);
          return;
        }
        case 'edit': if (item) editItem(ls, item); return;
        case 'delete': if (item) askDelete(ls, item); return;
        case 'role': if (item && ls === 'users') askRole(item as UserRow); return;
        case 'new':
          if (item && ls === 'users') newItem('devices', (item as UserRow).user.id);
          return;
        default:
          return;
      }
    }

    const selected = v && sel.index >= 0 ? v.rows[sel.index] : undefined;
    const sortable = cols.filter((c) => c.sortValue).map((c) => c.key);
    switch (action) {
      case 'up': moveBy(-1); return;
      case 'down': moveBy(1); return;
      case 'pageUp': moveBy({page: -1, pageSize}); return;
      case 'pageDown': moveBy({page: 1, pageSize}); return;
      case 'home': moveBy('home'); return;
      case 'end': moveBy('end'); return;
      case 'filter': updateList((st) => ({...st, filtering: true})); return;
      case 'sortNext': updateList((st) => nextSort(st, sortable)); return;
      case 'sortReverse': updateList((st) => flipSort(st, sortable)); return;
      case 'open':
        if (sel.id) updateList((st) => ({...st, selectedId: sel.id, detailId: sel.id, detailScroll: 0, reveal: false}));
        return;
      case 'copy': {
        const value = selected ? sp.copyValue(selected) : null;
        if (value) copy(value.label, value.value);
        return;
      }
      case 'new': newItem(ls, null); return;
      case 'edit': if (selected) editItem(ls, selected); return;
      case 'delete': if (selected) askDelete(ls, selected); return;
      default:
        return;
    }
    // The handlers above read everything through refs; they are stable for the App's life.
  }, [exit, copy]);

  useInput((input, key) => {
    if (input.length > 1 && keyName(input, key) === input) {
      const s = uiRef.current;
      const m = modalRef.current;
      const ls = s.screen === 'configuration' ? null : s.screen;
      // Several keys in one event (ink-6 notes §2.4). Text entry takes printable runs whole
      // (a paste); everywhere else each character is a command.
      const typing = m !== null || (ls ? s.lists[ls].filtering : false);
      for (const k of splitChunk(input)) {
        if (!typing && k.name === k.input) for (const ch of k.input) handleKey(ch, ch);
        else handleKey(k.input, k.name);
      }
      return;
    }
    if (key.meta && !key.escape && input.length === 1) {
      // ESC and the next key arriving together parse as Alt+key. The console binds no Alt
      // chords, so it is what the admin typed: Esc, then the key.
      handleKey('', 'esc');
      handleKey(input, keyName(input, {...key, meta: false}));
      return;
    }
    handleKey(input, keyName(input, key));
  });

  if (size.columns < MIN_COLUMNS || size.rows < MIN_ROWS) {
    return (
      <Box flexDirection="column" width={size.columns} height={Math.max(1, size.rows - 1)}>
        <Text wrap="truncate">{`terminal too small: need ${MIN_COLUMNS}×${MIN_ROWS}, have ${size.columns}×${size.rows}`}</Text>
        <Text wrap="truncate" color={color('muted')}>resize the window, or press q to quit</Text>
      </Box>
    );
  }

  const badges: Array<{text: string; tone: 'badge' | 'danger' | 'warning'}> = [];
  if (settings.demo) badges.push({text: 'DEMO', tone: 'badge'});
  if (settings.readOnly) badges.push({text: 'READ-ONLY', tone: 'warning'});
  if (settings.insecure) badges.push({text: 'INSECURE TLS', tone: 'danger'});
  if (settings.plainHttp) badges.push({text: 'PLAIN HTTP', tone: 'danger'});
  const status = pollStatus ?? {mode: 'loading', lastOkAt: null, nextAt: null, failures: 0, lastError: null, inFlight: true,
    held: false, paused: false, intervalMs: settings.refreshSeconds * 1000} satisfies PollStatus;

  const width = size.columns;
  let body: React.JSX.Element;
  let info: string;
  let hints: string;
  if (modal?.kind === 'form') {
    if (modal.picker) {
      const allowNone = modal.purpose.kind === 'rule-create' || modal.purpose.kind === 'rule-edit';
      body = <UserPicker title={`${modal.title} › pick a user`} users={snapshot?.users ?? []} state={modal.picker} allowNone={allowNone} width={width} height={bodyHeight} />;
      hints = 'Enter pick  Esc back';
    } else {
      body = <FormView title={modal.title} form={modal.form} notes={modal.notes} width={width} height={bodyHeight} />;
      hints = 'Tab next  Ctrl-S save  Esc cancel';
    }
    info = modal.form.submitting ? 'Saving…' : modal.confirm ? 'Discard your changes? y discard · any other key returns to the form'
      : isDirty(modal.form) ? 'unsaved changes' : '';
  } else if (modal?.kind === 'config-review') {
    body = <ConfigReviewView review={modal} width={width} height={bodyHeight} />;
    info = modal.saving ? 'Saving…' : modal.conflict ? 'Changed on the server meanwhile' : 'Review';
    hints = modal.conflict ? 'a re-apply  r reload  Esc back' : 'y save  n/Esc back';
  } else if (modal?.kind === 'result') {
    body = <DeviceResult state={modal.result} width={width} height={bodyHeight} />;
    info = 'New device';
    hints = 'w file  c copy  Q QR  Esc done';
  } else if (ui.help) {
    body = <HelpOverlay width={width} height={bodyHeight} scroll={ui.helpScroll} />;
    info = 'Help';
    hints = 'Esc close';
  } else if (!snapshot) {
    body = <Box height={bodyHeight}><Text color={color('muted')}>{status.failures > 0 ? 'Cannot load data yet; retrying by itself (see the status bar).' : 'Loading…'}</Text></Box>;
    info = '';
    hints = '? help  q quit';
  } else if (ui.screen === 'configuration') {
    const lines = configurationLines(snapshot.configuration, snapshot.fetchedAt, ui.configReveal);
    const at = Math.max(0, lines.findIndex((l) => l.entry === ui.configEntry));
    body = <DetailView lines={lines} scroll={Math.max(0, at - Math.floor(bodyHeight / 3))} selectedEntry={ui.configEntry} width={width} height={bodyHeight} />;
    info = 'Configuration';
    hints = '↓↑ move  Enter edit  n add provider  d delete provider  v reveal';
  } else if (spec && listState && view) {
    if (listState.detailId) {
      if (detailItem) {
        const lines = spec.detail(detailItem, {snapshot, now: snapshot.fetchedAt, reveal: listState.reveal});
        body = <DetailView lines={lines} scroll={listState.detailScroll} width={width} height={bodyHeight} />;
        info = `${spec.noun[0]!.toUpperCase()}${spec.noun.slice(1)} › ${spec.title(detailItem, snapshot)}`;
      } else {
        body = <Box height={bodyHeight}><Text color={color('warning')}>{`This ${spec.noun} no longer exists on the server (deleted elsewhere). Esc returns to the list.`}</Text></Box>;
        info = `${spec.noun} gone`;
      }
      hints = listScreen === 'users' ? 'e edit  R role  n device  d delete  Esc back' : 'e edit  d delete  v reveal  c copy  Esc back';
    } else {
      body = (
        <Table
          rows={view.rows}
          columns={columns}
          getId={spec.getId}
          indexOf={view.indexOf}
          selectedId={selection.id}
          width={width}
          height={bodyHeight}
          sort={listState.sort ?? undefined}
          emptyText={listState.filter ? `No ${spec.noun}s match "${listState.filter}".` : `No ${spec.noun}s.`}
        />
      );
      const total = spec.items(snapshot).length;
      const position = selection.index >= 0 ? `${selection.index + 1}/${view.rows.length}` : `0/${view.rows.length}`;
      const filterText = listState.filtering ? `/${listState.filter}▌` : listState.filter ? `filter "${listState.filter}" (Esc clears)` : '';
      info = `${filterText ? `${filterText}  ` : ''}${position}${view.rows.length !== total ? ` of ${total}` : ''} ${spec.noun}s`;
      hints = listState.filtering ? 'Enter keep  Esc clear' : '/ filter  n new  Enter details  p pause  ? help';
    }
  } else {
    body = <Box height={bodyHeight} />;
    info = '';
    hints = '';
  }

  return (
    <Box flexDirection="column" width={width} height={size.rows - 1}>
      <Header label={settings.label} badges={badges} status={status} width={width} />
      <Tabs active={ui.screen} snapshot={snapshot} width={width} />
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {modal?.kind === 'confirm' ? <ConfirmDialog text={modal.text} {...(modal.detail ? {detail: modal.detail} : {})} width={width} /> : body}
      </Box>
      <Text wrap="truncate" color={color('accent')}>{truncate(info, width)}</Text>
      <StatusBar message={message} hints={hints} width={width} />
    </Box>
  );
}

function Tabs({active, snapshot, width}: {active: ScreenId; snapshot: Snapshot | null; width: number}): React.JSX.Element {
  const count: Record<ScreenId, string> = {
    devices: snapshot ? ` ${snapshot.devices.length}` : '',
    users: snapshot ? ` ${snapshot.users.length}` : '',
    rules: snapshot ? ` ${snapshot.rules.length}` : '',
    configuration: '',
  };
  return (
    <Box width={width}>
      <Text wrap="truncate">
        {SCREENS.map((s, i) => (
          <Text key={s.id} inverse={s.id === active} bold={s.id === active}>{` ${i + 1} ${s.title}${count[s.id]} `}</Text>
        ))}
      </Text>
    </Box>
  );
}

function ConfigReviewView({review, width, height}: {review: ConfigReview; width: number; height: number}): React.JSX.Element {
  const lines: Array<{text: string; tone?: 'warning' | 'accent' | 'muted'; bold?: boolean}> = [];
  if (review.conflict) {
    lines.push({text: 'The configuration changed on the server since you opened the form. Nothing was saved.', tone: 'warning', bold: true});
    lines.push({text: 'Changed on the server:', bold: true});
    for (const l of review.conflict.changes.length ? review.conflict.changes : ['(only the update time moved)']) lines.push({text: `  ${l}`});
    lines.push({text: ' '});
    lines.push({text: 'a  re-apply your edit on top of the new configuration (you will see the diff again)', tone: 'accent'});
    lines.push({text: 'r  reload: drop your edit and show the server\'s configuration', tone: 'accent'});
    lines.push({text: 'Esc  back to the form', tone: 'muted'});
  } else {
    lines.push({text: review.title, bold: true});
    lines.push({text: 'What will change:', tone: 'muted'});
    for (const l of review.lines) lines.push({text: `  ${l}`});
    lines.push({text: ' '});
    lines.push({text: 'y save · n / Esc back (default)', tone: 'muted'});
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      {lines.slice(0, height).map((l, i) => (
        <Text key={i} wrap="truncate" bold={l.bold} color={l.tone ? color(l.tone) : undefined}>{truncate(l.text, width)}</Text>
      ))}
    </Box>
  );
}

function DetailView({lines, scroll, width, height, selectedEntry}: {lines: DetailLine[]; scroll: number; width: number; height: number; selectedEntry?: string}): React.JSX.Element {
  const labelWidth = Math.min(26, Math.max(...lines.map((l) => (l.label === undefined ? 0 : displayWidth(l.label)))) + 2);
  const start = Math.max(0, Math.min(scroll, lines.length - height));
  const visible = lines.slice(start, start + height);
  return (
    <Box flexDirection="column" width={width} height={height}>
      {visible.map((line, i) => (
        line.heading
          ? <Text key={i} bold inverse={line.entry !== undefined && line.entry === selectedEntry} color={color('accent')} wrap="truncate">{truncate(line.value, width)}</Text>
          : line.entry !== undefined && line.entry === selectedEntry
            ? <Text key={i} inverse wrap="truncate">{truncate(`${line.label !== undefined ? padEnd(truncate(line.label, labelWidth - 1), labelWidth) : ''}${line.value}`, width)}</Text>
          : (
            <Text key={i} wrap="truncate">
              {line.label !== undefined ? <Text color={color('muted')}>{padEnd(truncate(line.label, labelWidth - 1), labelWidth)}</Text> : null}
              <Text color={line.tone ? color(line.tone) : undefined}>{truncate(line.value, Math.max(1, width - (line.label !== undefined ? labelWidth : 0)))}</Text>
            </Text>
          )
      ))}
    </Box>
  );
}
