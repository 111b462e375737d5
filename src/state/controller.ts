// The console's behaviour without React: the store, live polling, and every key press. A key is
// resolved through the keymap (src/state/keymap.ts) against the scope stack — the innermost modal,
// else help › filter › configuration/detail/list › global — and runs one handler here or in the
// active resource's module (src/state/resources/*). Read-only mode is checked once, here, from the
// binding's `writes` flag. Plain TypeScript: unit tests drive it without Ink.
import {ApiError} from '../api/index.js';
import {plainSafe} from '../common/display-safe.js';
import {defaultConfigFileName, osc52Copy, writeConfigFile} from '../wireguard/index.js';
import {
  SCREENS,
  Store,
  topModal,
  type ConsoleClient,
  type ConsoleSettings,
  type ConsoleState,
  type DialogModal,
  type FormModal,
  type ListScreenId,
  type Modal,
  type PromptModal,
  type ResultModal,
  type StatusMessage,
} from './console.js';
import {fetchAll} from './fetch.js';
import {
  applyServerErrors,
  cycleChoice,
  editFocused,
  focusedSpec,
  focusFirstError,
  hasErrors,
  isDirty,
  moveFocus,
  setValue,
  toggle,
  validateForm,
  type FormState,
} from './form.js';
import {bindingFor, type Action, type Binding, type Scope, hintsFor} from './keymap.js';
import type {ListView} from './list.js';
import {needsClock, Poller, type PollStatus} from './poller.js';
import {buildSnapshot, type FetchedData, type Snapshot} from './resources.js';
import {configurationResource} from './resources/configuration.js';
import {devices} from './resources/devices.js';
import {rules} from './resources/rules.js';
import type {ActionContext, ResourceColumn, ResourceSpec} from './resources/spec.js';
import {users} from './resources/users.js';
import {editText, isPrintable} from './textedit.js';
import {flipSortDirection, stepSort} from './sorting.js';
import {effectiveSelection, initialListState, ListViewCache, moveCursor, type ListUiState, type Move} from './view.js';
import {pickerEntries} from './picker.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySpec = ResourceSpec<any>;
export const RESOURCES: Record<ListScreenId, AnySpec> = {devices, users, rules};

export interface ConsoleIO {
  /** The console's own sequences (the OSC 52 of a copy) straight to the terminal. */
  writeRaw(data: string): void;
  exit(): void;
  /** Re-reads the token where it came from (a profile's tokenFile or tokenCommand); null when it cannot. */
  reloadToken?: () => Promise<string | null>;
}

/** Why the server may have refused the token, by 0.7.36's 401 kind. */
const TOKEN_REJECTED: Record<string, string> = {
  invalid_token: 'its signature does not match this server, or it has expired',
  no_resource_found: 'it was revoked or expired, or its user was deleted',
  unauthenticated: 'no token reached the server (a proxy may strip the Authorization header)',
};

export interface ListDerived {
  spec: AnySpec;
  state: ListUiState;
  columns: ResourceColumn<unknown>[];
  view: ListView<unknown>;
  selection: {id: string | null; index: number};
  detailItem: unknown;
}

// Rows the shell takes besides the body: header, tabs, info line, status bar, and the one spare
// row that keeps Ink 6 from clearing the whole screen on every frame (docs/architecture.md).
export const CHROME_ROWS = 4;

/** A key that types text: printable characters, not a named key such as `tab` or `enter`. */
function typed(name: string, input: string): boolean {
  return name === input && isPrintable(input) && !/[\t\r\n]/.test(input);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function initialPoll(refreshSeconds: number): PollStatus {
  return {
    mode: 'loading',
    lastOkAt: null,
    nextAt: null,
    failures: 0,
    lastError: null,
    inFlight: true,
    held: false,
    paused: false,
    intervalMs: refreshSeconds * 1000,
  };
}

export class Controller implements ActionContext {
  readonly store: Store<ConsoleState>;
  private poller: Poller<Snapshot> | null = null;
  private viewport = {columns: 100, rows: 30};
  private readonly caches: Record<ListScreenId, ListViewCache<unknown>>;
  private readonly columnsCache = new WeakMap<Snapshot, Map<ListScreenId, ResourceColumn<unknown>[]>>();
  private unsubscribeHold: (() => void) | null = null;

  constructor(
    readonly client: ConsoleClient,
    readonly settings: ConsoleSettings,
    private readonly io: ConsoleIO,
    private firstData: Promise<FetchedData> | null = null,
  ) {
    this.store = new Store<ConsoleState>({
      screen: 'devices',
      lists: {devices: initialListState(devices.defaultSort), users: initialListState(users.defaultSort), rules: initialListState(rules.defaultSort)},
      configuration: {entry: 'defaults', reveal: false},
      help: {open: false, scroll: 0},
      modals: [],
      message: null,
      snapshot: null,
      poll: initialPoll(settings.refreshSeconds),
      clock: Date.now(),
    });
    const cache = (spec: AnySpec) => new ListViewCache<unknown>((item) => spec.getId(item));
    this.caches = {devices: cache(devices), users: cache(users), rules: cache(rules)};
  }

  // ---- state access ----------------------------------------------------------------------------

  get state(): ConsoleState {
    return this.store.get();
  }

  get snapshot(): Snapshot {
    const s = this.state.snapshot;
    if (!s) throw new Error('no data yet');
    return s;
  }

  private set(change: (s: ConsoleState) => ConsoleState): void {
    this.store.update(change);
  }

  /** Info and success messages fade after this long so the key hints come back; errors stay. */
  static readonly MESSAGE_FADE_MS = 6000;
  private fadeTimer: ReturnType<typeof setTimeout> | null = null;

  message(message: StatusMessage | null): void {
    this.set((s) => ({...s, message}));
    if (this.fadeTimer) clearTimeout(this.fadeTimer);
    this.fadeTimer = null;
    if (message && (message.tone === 'info' || message.tone === 'ok')) {
      this.fadeTimer = setTimeout(() => {
        this.fadeTimer = null;
        if (this.state.message === message) this.set((s) => ({...s, message: null}));
      }, Controller.MESSAGE_FADE_MS);
      this.fadeTimer.unref?.();
    }
  }

  setViewport(columns: number, rows: number): void {
    this.viewport = {columns, rows};
  }

  bodyHeight(): number {
    return Math.max(1, this.viewport.rows - 1 - CHROME_ROWS);
  }

  // ---- polling ---------------------------------------------------------------------------------

  start(): void {
    const poller = new Poller<Snapshot>({
      intervalMs: this.settings.refreshSeconds * 1000,
      fetch: async () => {
        const pending = this.firstData;
        this.firstData = null;
        const data = await (pending ?? fetchAll(this.client));
        // Derivation happens here, once per cycle, so a render never redoes it.
        return buildSnapshot(data, this.state.snapshot, Date.now());
      },
      onData: (next) => {
        this.tokenReloaded = false;
        this.set((s) => {
          let message = s.message;
          if (next.issues.length > 0) {
            const first = next.issues[0]!;
            message = {
              tone: 'warning',
              text: `Unexpected data from the server: ${first.path}: ${first.message}${next.issues.length > 1 ? ` (+${next.issues.length - 1} more)` : ''}; the rest is shown`,
            };
          } else if (message && message.tone === 'error' && message.text.startsWith('Refresh failed')) {
            message = {tone: 'ok', text: 'Connection restored'};
          }
          return {...s, snapshot: next, message, clock: Date.now()};
        });
      },
      onStatus: (status) => {
        this.set((s) => ({
          ...s,
          poll: status,
          message:
            status.lastError && status.failures > 0 && !status.inFlight ? {tone: 'error', text: `Refresh failed: ${errorText(status.lastError)}`} : s.message,
        }));
        this.keepClock(needsClock(status));
        if (status.lastError instanceof ApiError && status.lastError.isAuthFailure && !status.inFlight) void this.tokenRejected(status.lastError);
      },
    });
    this.poller = poller;
    // Live updates hold while help, a form or a dialog is open, so nothing moves under the admin.
    this.unsubscribeHold = this.store.subscribe(() => poller.setHeld(this.state.help.open || this.state.modals.length > 0));
    poller.start();
  }

  private clockTimer: ReturnType<typeof setInterval> | null = null;
  /** The token source was re-read once since the last good poll; the next rejection asks the admin. */
  private tokenReloaded = false;
  private lastRejection: ApiError | null = null;

  /**
   * A rejected token is not "offline": say so and why, re-read a tokenFile/tokenCommand once, then
   * ask for a new token. Live updates hold while the prompt is open and resume with the screen,
   * filter and cursor as they were.
   */
  private async tokenRejected(err: ApiError): Promise<void> {
    // Status updates repeat the last error until the next cycle; each failed cycle is handled once.
    if (err === this.lastRejection) return;
    this.lastRejection = err;
    if (this.state.modals.some((m) => m.kind === 'prompt' && m.mask)) return;
    const why = TOKEN_REJECTED[err.kind] ?? err.message;
    const setToken = this.client.setToken;
    if (!this.tokenReloaded && this.io.reloadToken && setToken) {
      this.tokenReloaded = true;
      try {
        const token = await this.io.reloadToken();
        if (token) {
          setToken.call(this.client, token);
          this.message({tone: 'warning', text: 'The server rejected the API token; re-read it from its source and retrying'});
          this.refresh();
          return;
        }
      } catch {
        // fall through to asking
      }
    }
    this.message({tone: 'error', text: `The server rejected the API token: ${why}`});
    if (!setToken) return;
    this.push({
      kind: 'prompt',
      label: 'New API token',
      mask: true,
      value: '',
      cursor: 0,
      lines: [
        {text: `The server rejected the API token: ${why}.`, tone: 'danger', bold: true},
        {text: 'Paste a new token (Firezone web UI: Settings → Account → API Tokens, or bin/create-api-token on the server).'},
        {text: 'Live updates resume with this screen, filter and cursor as they are.', tone: 'muted'},
      ],
      help: 'Enter uses it · Esc keeps trying the old one',
      accept: (value) => {
        const token = value.trim();
        if (token === '') return;
        try {
          setToken.call(this.client, token);
        } catch (e) {
          this.message({tone: 'error', text: errorText(e)});
          return;
        }
        const prompt = this.state.modals.find((m) => m.kind === 'prompt' && m.mask);
        if (prompt) this.removeModal(prompt);
        this.tokenReloaded = true;
        this.message({tone: 'info', text: 'Token replaced; resuming live updates'});
        this.refresh();
      },
    });
  }

  /** Ages keep counting (and states follow them) even while the server is unreachable; nothing ticks while paused. */
  private keepClock(on: boolean): void {
    if (on && !this.clockTimer) {
      this.clockTimer = setInterval(() => this.set((s) => ({...s, clock: Date.now()})), 1000);
      this.clockTimer.unref?.();
    } else if (!on && this.clockTimer) {
      clearInterval(this.clockTimer);
      this.clockTimer = null;
    }
  }

  stop(): void {
    this.keepClock(false);
    if (this.fadeTimer) clearTimeout(this.fadeTimer);
    this.poller?.stop();
    this.unsubscribeHold?.();
  }

  refresh(): void {
    this.poller?.refreshNow();
  }

  // ---- derived views ---------------------------------------------------------------------------

  columns(screen: ListScreenId, snap: Snapshot): ResourceColumn<unknown>[] {
    let perSnap = this.columnsCache.get(snap);
    if (!perSnap) {
      perSnap = new Map();
      this.columnsCache.set(snap, perSnap);
    }
    let cols = perSnap.get(screen);
    if (!cols) {
      cols = RESOURCES[screen].columns(snap, () => this.state.clock);
      perSnap.set(screen, cols);
    }
    return cols;
  }

  /** The list, its selection and open detail for a screen; memoised per (items, filter, sort). */
  list(screen: ListScreenId, state: ConsoleState = this.state): ListDerived | null {
    const snap = state.snapshot;
    if (!snap) return null;
    const spec = RESOURCES[screen];
    const st = state.lists[screen];
    const columns = this.columns(screen, snap);
    const view = this.caches[screen].get(spec.items(snap), st, columns);
    const selection = effectiveSelection(view, st);
    const detailItem = st.detailId ? (spec.items(snap).find((x: unknown) => spec.getId(x) === st.detailId) ?? null) : null;
    return {spec, state: st, columns, view, selection, detailItem};
  }

  private activeList(): ListDerived | null {
    const screen = this.state.screen;
    return screen === 'configuration' ? null : this.list(screen);
  }

  private updateList(screen: ListScreenId, change: (st: ListUiState) => ListUiState): void {
    this.set((s) => ({...s, lists: {...s.lists, [screen]: change(s.lists[screen])}}));
  }

  // ---- scopes and hints ------------------------------------------------------------------------

  scopes(state: ConsoleState = this.state): Scope[] {
    const m = topModal(state);
    if (m) return [m.kind === 'form' ? 'form' : m.kind];
    if (state.help.open) return ['help', 'global'];
    if (state.screen === 'configuration') return ['configuration', 'global'];
    const st = state.lists[state.screen];
    if (st.filtering) return ['filter'];
    if (st.detailId) return ['detail', 'global'];
    return ['list', 'global'];
  }

  /** Whether a binding does something here: its handler exists, and writes are allowed. */
  available(b: Binding, state: ConsoleState = this.state): boolean {
    if (b.writes && this.settings.readOnly) return false;
    if (state.screen === 'configuration' || (b.scope !== 'list' && b.scope !== 'detail')) return true;
    const spec = RESOURCES[state.screen];
    switch (b.action) {
      case 'new':
        return b.scope === 'list' ? spec.actions.new !== undefined : spec.actions.newFromDetail !== undefined;
      case 'edit':
        return spec.actions.edit !== undefined;
      case 'delete':
        return spec.actions.delete !== undefined;
      case 'role':
        return spec.actions.role !== undefined;
      case 'reveal':
        return spec.revealable === true;
      default:
        return true;
    }
  }

  hints(state: ConsoleState = this.state): string {
    if (!state.snapshot && topModal(state) === null && !state.help.open) return hintsFor(['global'], (b) => this.available(b, state));
    return hintsFor(this.scopes(state), (b) => this.available(b, state));
  }

  // ---- input -----------------------------------------------------------------------------------

  /** One key press, by normalised name (`j`, `enter`, `ctrl+s`) and its raw input. */
  key(name: string, input: string): void {
    if (name === 'ctrl+c') {
      this.io.exit();
      return;
    }
    // Where text goes, a printable key is text even if a binding uses it elsewhere (Space toggles
    // a yes/no field, but types a space into a text field).
    if (typed(name, input) && this.acceptsText() && this.typeInto(name, input)) return;
    const scopes = this.scopes();
    const inner = bindingFor(scopes.slice(0, 1), name);
    if (!inner && this.typeInto(name, input)) return;
    const binding = inner ?? bindingFor(scopes.slice(1), name);
    if (!binding) {
      this.unbound(name, input);
      return;
    }
    if (binding.writes && this.settings.readOnly) {
      this.message({tone: 'warning', text: `Read-only mode: ${this.writeName(binding.action)} is disabled (started with --read-only)`});
      return;
    }
    this.run(binding.scope, binding.action);
  }

  /** Whether printable keys here are text (a field, a filter, a picker, a prompt), not commands. */
  acceptsText(): boolean {
    const m = topModal(this.state);
    if (m?.kind === 'form') {
      const kind = focusedSpec(m.form)?.kind;
      return kind === 'text' || kind === 'secret' || kind === 'picker';
    }
    return m?.kind === 'picker' || m?.kind === 'prompt' || (m === null && this.scopes()[0] === 'filter');
  }

  /** What a refused write would have done, in the admin's words. */
  private writeName(action: Action): string {
    if (this.state.screen === 'configuration' || topModal(this.state)) return this.state.screen === 'configuration' ? 'changing the configuration' : 'saving';
    const noun = `${RESOURCES[this.state.screen].noun}s`;
    switch (action) {
      case 'new':
        return this.scopes()[0] === 'detail' ? 'creating devices' : `creating ${noun}`;
      case 'edit':
        return `editing ${noun}`;
      case 'delete':
        return `deleting ${noun}`;
      case 'role':
        return 'changing roles';
      default:
        return 'writing';
    }
  }

  /** A bracketed paste: one insertion where text goes; in a list it opens the filter with it. */
  paste(text: string): void {
    const m = topModal(this.state);
    if (m?.kind === 'form') {
      const spec = focusedSpec(m.form);
      if (spec?.kind === 'picker') {
        this.openPicker(m, spec.key, text.replace(/\s+/g, ' ').trim());
        return;
      }
      const edited = editFocused(m.form, 'paste', text);
      if (edited) this.replaceModal(m, {...m, form: edited});
      else this.message({tone: 'warning', text: `Paste ignored: ${spec?.label ?? 'this field'} does not take text`});
      return;
    }
    if (m?.kind === 'picker' || m?.kind === 'prompt' || (m === null && this.scopes()[0] === 'filter')) {
      this.typeInto('paste', text.replace(/[\r\n\t]+/g, ' '));
      return;
    }
    const list = m === null && !this.state.help.open ? this.activeList() : null;
    if (list && !list.state.detailId) {
      this.updateList(list.spec.id, (st) => ({...st, filtering: true, filter: text.replace(/[\r\n\t]+/g, ' ').trim()}));
      return;
    }
    this.message({tone: 'warning', text: 'Paste ignored: nothing here takes text'});
  }

  /** Text entry where the innermost scope has no binding for the key. True when handled. */
  private typeInto(name: string, input: string): boolean {
    const s = this.state;
    const m = topModal(s);
    if (m?.kind === 'form') {
      if (m.form.submitting) {
        this.message({tone: 'info', text: 'Saving… the server has not answered yet; typing waits (Esc cancels the save)'});
        return true;
      }
      const spec = focusedSpec(m.form);
      if (!spec) return false;
      if (spec.kind === 'picker' && typed(name, input)) {
        // Typing on a picker field opens the picker with what was typed as its filter.
        this.openPicker(m, spec.key, input);
        return true;
      }
      const edited = editFocused(m.form, name, input);
      if (edited) {
        this.replaceModal(m, {...m, form: edited});
        return true;
      }
      return false;
    }
    if (m?.kind === 'picker') {
      if (name === 'backspace') this.replaceModal(m, {...m, filter: [...m.filter].slice(0, -1).join(''), index: 0});
      else if (typed(name, input)) this.replaceModal(m, {...m, filter: m.filter + input, index: 0});
      else return false;
      return true;
    }
    if (m?.kind === 'prompt') {
      const edited = editText({value: m.value, cursor: m.cursor}, name, input);
      if (!edited) return false;
      this.replaceModal(m, {...m, value: edited.value, cursor: edited.cursor});
      return true;
    }
    if (m === null && !s.help.open && s.screen !== 'configuration' && s.lists[s.screen].filtering) {
      const screen = s.screen;
      if (name === 'backspace') this.updateList(screen, (st) => ({...st, filter: [...st.filter].slice(0, -1).join('')}));
      else if (typed(name, input)) this.updateList(screen, (st) => ({...st, filter: st.filter + input}));
      else return false;
      return true;
    }
    return false;
  }

  /** A key nothing took. Printable keys on a form field that takes no text say why. */
  private unbound(name: string, input: string): void {
    const m = topModal(this.state);
    if (m?.kind !== 'form' || !typed(name, input)) return;
    if (name === 'q') {
      this.askClose(m, 'quit');
      return;
    }
    const spec = focusedSpec(m.form);
    const how = spec?.kind === 'toggle' ? 'Space toggles it' : spec?.kind === 'choice' ? '←/→ choose a value' : 'it takes no text';
    this.message({tone: 'info', text: `${spec?.label.trim() ?? 'This field'}: ${how}`});
  }

  private run(scope: Scope, action: Action): void {
    switch (scope) {
      case 'form':
        return this.formAction(action);
      case 'picker':
        return this.pickerAction(action);
      case 'dialog':
        return this.dialogAction(action);
      case 'result':
        return this.resultAction(action);
      case 'prompt':
        return this.promptAction(action);
      case 'help':
        return this.helpAction(action);
      case 'filter':
        return this.filterAction(action);
      case 'configuration':
        return configurationResource.run(this, action);
      case 'detail':
        return this.detailAction(action);
      case 'list':
        return this.listAction(action);
      case 'global':
        return this.globalAction(action);
    }
  }

  // ---- global, help, lists, details ------------------------------------------------------------

  private globalAction(action: Action): void {
    const screens: Partial<Record<Action, number>> = {screen1: 0, screen2: 1, screen3: 2, screen4: 3};
    const target = screens[action];
    if (target !== undefined) {
      this.set((s) => ({...s, screen: SCREENS[target]!.id, help: {open: false, scroll: 0}}));
      return;
    }
    switch (action) {
      case 'nextScreen':
      case 'prevScreen': {
        const i = SCREENS.findIndex((x) => x.id === this.state.screen);
        const next = SCREENS[(i + (action === 'nextScreen' ? 1 : SCREENS.length - 1)) % SCREENS.length]!;
        this.set((s) => ({...s, screen: next.id}));
        return;
      }
      case 'help':
        this.set((s) => ({...s, help: {open: true, scroll: 0}}));
        return;
      case 'quit':
      case 'quitNow':
        this.io.exit();
        return;
      case 'refresh':
        this.refresh();
        this.message({tone: 'info', text: 'Refreshing…'});
        return;
      case 'pause':
        if (!this.poller) return;
        this.poller.togglePause();
        this.message({tone: 'info', text: this.poller.current.paused ? 'Live updates paused (p resumes)' : 'Live updates resumed'});
        return;
      case 'back': {
        const list = this.activeList();
        if (list?.state.filter) this.updateList(list.spec.id, (st) => ({...st, filter: ''}));
        return;
      }
      default:
    }
  }

  /** Help lines and how many fit are the UI's; it tells the controller the maximum scroll. */
  helpMaxScroll = 0;

  private helpAction(action: Action): void {
    const page = Math.max(1, this.bodyHeight() - 2);
    const scrollTo = (n: number) => this.set((s) => ({...s, help: {open: true, scroll: Math.max(0, Math.min(this.helpMaxScroll, n))}}));
    const scroll = this.state.help.scroll;
    if (action === 'back') this.set((s) => ({...s, help: {open: false, scroll: 0}}));
    else if (action === 'down') scrollTo(scroll + 1);
    else if (action === 'up') scrollTo(scroll - 1);
    else if (action === 'pageDown') scrollTo(scroll + page);
    else if (action === 'pageUp') scrollTo(scroll - page);
  }

  private filterAction(action: Action): void {
    const list = this.activeList();
    if (!list) return;
    const screen = list.spec.id;
    if (action === 'filterAccept') {
      // The cursor goes where the admin's attention is: to the first match if it is not on one.
      this.updateList(screen, (st) => {
        const view = this.list(screen)?.view;
        const inView = view && st.selectedId !== null && view.indexOf(st.selectedId) >= 0;
        const first = view && view.rows.length > 0 ? view.idAt(0) : null;
        return {...st, filtering: false, ...(inView || first === null ? {} : {selectedId: first, selectedIndex: 0})};
      });
    } else if (action === 'filterClear') {
      this.updateList(screen, (st) => ({...st, filtering: false, filter: ''}));
    } else if (action === 'up' || action === 'down') {
      this.updateList(screen, (st) => moveCursor(list.view, st, action === 'up' ? -1 : 1));
    }
  }

  private listAction(action: Action): void {
    const list = this.activeList();
    if (!list || !this.state.snapshot) return;
    const screen = list.spec.id;
    const pageSize = Math.max(1, this.bodyHeight() - 2);
    const move = (m: Move) => this.updateList(screen, (st) => moveCursor(list.view, st, m));
    const selected = list.selection.index >= 0 ? list.view.rows[list.selection.index] : undefined;
    const sortable = list.columns.filter((c) => c.sortValue);
    switch (action) {
      case 'up':
        return move(-1);
      case 'down':
        return move(1);
      case 'pageUp':
        return move({page: -1, pageSize});
      case 'pageDown':
        return move({page: 1, pageSize});
      case 'home':
        return move('home');
      case 'end':
        return move('end');
      case 'filter':
        return this.updateList(screen, (st) => ({...st, filtering: true}));
      case 'sortNext':
      case 'sortPrev':
        return this.updateList(screen, (st) => ({...st, sort: stepSort(st.sort, sortable, action === 'sortNext' ? 1 : -1)}));
      case 'sortReverse':
        return this.updateList(screen, (st) => ({...st, sort: flipSortDirection(st.sort, sortable)}));
      case 'open':
        if (list.selection.id) this.openDetail(screen, list.selection.id);
        return;
      case 'copy': {
        const value = selected ? list.spec.copyValue(selected) : null;
        if (value) this.copy(value.label, value.value);
        return;
      }
      case 'new':
        return list.spec.actions.new?.(this);
      case 'edit':
        if (selected) list.spec.actions.edit?.(this, selected);
        return;
      case 'delete':
        if (selected) list.spec.actions.delete?.(this, selected);
        return;
      case 'role':
        if (selected) list.spec.actions.role?.(this, selected);
        return;
      default:
    }
  }

  private detailAction(action: Action): void {
    const list = this.activeList();
    if (!list) return;
    const screen = list.spec.id;
    const item = list.detailItem;
    switch (action) {
      case 'back':
        return this.leaveDetail(screen);
      case 'up':
      case 'down': {
        // A detail with selectable lines (a user's devices) moves a cursor over them; others scroll.
        const entries =
          item && this.state.snapshot
            ? list.spec.detail(item, {snapshot: this.state.snapshot, now: this.state.clock, reveal: false}).flatMap((l) => (l.entry ? [l.entry] : []))
            : [];
        if (entries.length > 0) {
          this.updateList(screen, (st) => {
            const at = st.detailEntry === null ? -1 : entries.indexOf(st.detailEntry);
            const next = action === 'down' ? Math.min(entries.length - 1, at + 1) : Math.max(0, at - 1);
            return {...st, detailEntry: entries[next] ?? null};
          });
          return;
        }
        return this.updateList(screen, (st) => ({...st, detailScroll: Math.max(0, st.detailScroll + (action === 'down' ? 1 : -1))}));
      }
      case 'open': {
        const entry = list.state.detailEntry;
        if (entry?.startsWith('device:')) this.openDetail('devices', entry.slice('device:'.length));
        return;
      }
      case 'reveal':
        return this.updateList(screen, (st) => ({...st, reveal: !st.reveal}));
      case 'copy': {
        const value = item ? list.spec.copyValue(item) : null;
        if (value) this.copy(value.label, value.value);
        return;
      }
      case 'edit':
        if (item) list.spec.actions.edit?.(this, item);
        return;
      case 'delete':
        if (item) list.spec.actions.delete?.(this, item);
        return;
      case 'role':
        if (item) list.spec.actions.role?.(this, item);
        return;
      case 'new':
        if (item) list.spec.actions.newFromDetail?.(this, item);
        return;
      default:
    }
  }

  copy(label: string, value: string): void {
    // The clipboard gets what the screen shows: control characters as visible escapes, never raw.
    const {text, escaped} = plainSafe(value);
    const result = osc52Copy(text, process.env);
    if (!result.ok) {
      this.message({tone: 'error', text: result.message});
      return;
    }
    this.io.writeRaw(result.sequence);
    this.message(
      escaped > 0
        ? {tone: 'warning', text: `Copied ${label} with ${escaped} control character${escaped === 1 ? '' : 's'} shown as escapes (OSC 52)`}
        : {tone: 'ok', text: `Copied ${label} to the clipboard (OSC 52: your terminal must allow it)`},
    );
  }

  // ---- modals ----------------------------------------------------------------------------------

  private nextKey = 1;

  private push(modal: Modal): void {
    const keyed = {...modal, key: this.nextKey++};
    this.set((s) => ({...s, modals: [...s.modals, keyed]}));
  }

  /** Replaces the modal with `old`'s key wherever it is in the stack; a modal that is gone stays gone. */
  replaceModal(old: Modal, next: Modal): void {
    this.set((s) => (s.modals.some((m) => m.key === old.key) ? {...s, modals: s.modals.map((m) => (m.key === old.key ? {...next, key: old.key} : m))} : s));
  }

  removeModal(modal: Modal): void {
    this.set((s) => (s.modals.some((m) => m.key === modal.key) ? {...s, modals: s.modals.filter((m) => m.key !== modal.key)} : s));
  }

  close(): void {
    this.set((s) => ({...s, modals: s.modals.slice(0, -1)}));
  }

  openForm(modal: Omit<FormModal, 'kind'>): void {
    this.push({kind: 'form', ...modal});
  }

  openDialog(modal: Omit<DialogModal, 'kind'>): void {
    this.push({kind: 'dialog', ...modal});
  }

  openResult(modal: Omit<ResultModal, 'kind'>): void {
    this.push({kind: 'result', ...modal});
  }

  afterWrite(text: string, select?: {screen: ListScreenId; id: string}): void {
    this.message({tone: 'ok', text});
    if (select) this.updateList(select.screen, (st) => ({...st, selectedId: select.id}));
    this.refresh();
  }

  leaveDetail(screen: ListScreenId): void {
    this.updateList(screen, (st) => ({...st, detailId: null, detailScroll: 0, detailEntry: null, reveal: false}));
  }

  openDetail(screen: ListScreenId, id: string): void {
    this.set((s) => ({
      ...s,
      screen,
      lists: {...s.lists, [screen]: {...s.lists[screen], selectedId: id, detailId: id, detailScroll: 0, detailEntry: null, reveal: false}},
    }));
  }

  /** The form being edited, current (the stack may have changed while a save was in flight). */
  current<M extends Modal>(modal: M): M | null {
    return (this.state.modals.find((m) => m.key === modal.key) as M | undefined) ?? null;
  }

  private askClose(m: FormModal, why: 'discard' | 'quit'): void {
    if (!isDirty(m.form)) {
      if (why === 'quit') this.io.exit();
      else this.removeModal(m);
      return;
    }
    this.openDialog({
      title: why === 'quit' ? 'Discard your changes and quit?' : 'Discard your changes?',
      lines: [{text: `${m.title} has unsaved changes.`, tone: 'muted'}],
      choices: [
        {
          action: 'confirm',
          label: why === 'quit' ? 'discard and quit' : 'discard',
          run: () => {
            if (why === 'quit') {
              this.io.exit();
              return;
            }
            this.removeModal(m);
            this.message({tone: 'info', text: 'Changes discarded'});
          },
        },
        {action: 'cancel', label: 'back to the form'},
      ],
    });
  }

  private formAction(action: Action): void {
    const m = topModal(this.state);
    if (m?.kind !== 'form') return;
    if (m.form.submitting) {
      if (action === 'cancel') this.cancelSave(m);
      else this.message({tone: 'info', text: 'Saving… the server has not answered yet (Esc cancels the save)'});
      return;
    }
    const spec = focusedSpec(m.form);
    const update = (form: FormState) => this.replaceModal(m, {...m, form});
    switch (action) {
      case 'nextField':
        return update(moveFocus(m.form, 1));
      case 'prevField':
        return update(moveFocus(m.form, -1));
      case 'toggle':
        return update(toggle(m.form));
      case 'choiceNext':
        return update(cycleChoice(m.form, 1));
      case 'choicePrev':
        return update(cycleChoice(m.form, -1));
      case 'pick':
        if (spec?.kind === 'picker') this.openPicker(m, spec.key, '');
        else update(moveFocus(m.form, 1));
        return;
      case 'cancel':
        return this.askClose(m, 'discard');
      case 'save':
        void this.save(m);
        return;
      default:
    }
  }

  /**
   * Esc during a hung save: abort the request, keep the form and everything typed, say that the
   * outcome is unknown, and re-read the data so the admin can see whether it was applied.
   */
  private cancelSave(m: FormModal): void {
    const aborted = this.client.cancelWrites?.() ?? 0;
    this.replaceModal(m, {...m, form: {...m.form, submitting: false}});
    this.message({
      tone: 'warning',
      text: aborted > 0 ? 'Save cancelled; the outcome is unknown (the server may have applied it): re-reading the data' : 'Save cancelled',
    });
    this.refresh();
  }

  private labelled(form: FormState, errors: Record<string, string[]>): string {
    return Object.entries(errors)
      .map(([key, messages]) => {
        const label = form.specs.find((s) => s.key === key)?.label.trim() ?? key;
        return `${label}: ${messages.join(', ')}`;
      })
      .join('; ');
  }

  private async save(m: FormModal): Promise<void> {
    const checked = validateForm(m.form);
    if (hasErrors(checked)) {
      const focused = focusFirstError(checked);
      this.replaceModal(m, {...m, form: focused});
      this.message({tone: 'error', text: `Fix the form: ${this.labelled(focused, focused.errors)}`});
      return;
    }
    const sending: FormModal = {...m, form: {...checked, submitting: true}};
    this.replaceModal(m, sending);
    this.message({tone: 'info', text: 'Saving…'});
    try {
      await m.save(checked);
      const still = this.current(sending);
      if (still) this.replaceModal(still, {...still, form: {...still.form, submitting: false}});
    } catch (err) {
      this.formFailed(sending, err);
    }
  }

  /** A failed save: a 422 lands on the form's fields (every value kept), anything else in the status bar. */
  formFailed(form: FormModal, err: unknown): void {
    if (err instanceof ApiError && err.kind === 'cancelled') return;
    const still = this.current(form);
    if (err instanceof ApiError && err.kind === 'validation' && still) {
      const fieldErrors = still.mapErrors ? still.mapErrors(err.fieldErrors) : err.fieldErrors;
      const mapped = applyServerErrors({...still.form, submitting: false}, fieldErrors, still.errorAliases ?? {});
      this.replaceModal(still, {...still, form: mapped});
      const text = [this.labelled(mapped, mapped.errors), ...mapped.formErrors].filter((t) => t !== '').join('; ');
      this.message({tone: 'error', text: text || errorText(err)});
      return;
    }
    if (still) this.replaceModal(still, {...still, form: {...still.form, submitting: false}});
    this.message({tone: 'error', text: errorText(err)});
  }

  private openPicker(form: FormModal, field: string, filter: string): void {
    this.push({kind: 'picker', title: `${form.title} › pick a user`, field, filter, index: 0, allowNone: form.pickerAllowsNone === true});
  }

  private pickerAction(action: Action): void {
    const m = topModal(this.state);
    if (m?.kind !== 'picker') return;
    const entries = pickerEntries(this.state.snapshot?.users ?? [], m.filter, m.allowNone);
    if (action === 'up') this.replaceModal(m, {...m, index: Math.max(0, m.index - 1)});
    else if (action === 'down') this.replaceModal(m, {...m, index: Math.min(Math.max(0, entries.length - 1), m.index + 1)});
    else if (action === 'cancel') this.removeModal(m);
    else if (action === 'pick') {
      const chosen = entries[Math.min(m.index, entries.length - 1)];
      if (chosen === undefined) {
        this.message({tone: 'warning', text: `No user matches "${m.filter}"`});
        return;
      }
      this.removeModal(m);
      const form = topModal(this.state);
      if (form?.kind === 'form') this.replaceModal(form, {...form, form: moveFocus(setValue(form.form, m.field, chosen), 1)});
    }
  }

  private dialogAction(action: Action): void {
    const m = topModal(this.state);
    if (m?.kind !== 'dialog' || m.busy) return;
    const choice = m.choices.find((c) => c.action === action);
    if (!choice) return;
    if (!choice.run) {
      this.removeModal(m);
      if (action === 'cancel') this.message({tone: 'info', text: 'Cancelled'});
      return;
    }
    const run = choice.run;
    const busy: DialogModal = {...m, busy: 'Working…'};
    this.replaceModal(m, busy);
    void (async () => {
      try {
        await run();
        this.removeModal(busy);
      } catch (err) {
        this.removeModal(busy);
        this.message({tone: 'error', text: errorText(err)});
      }
    })();
  }

  private resultAction(action: Action): void {
    const m = topModal(this.state);
    if (m?.kind !== 'result') return;
    switch (action) {
      case 'writeFile': {
        if (m.config === null) return;
        const config = m.config;
        const path = defaultConfigFileName(m.deviceName);
        this.push({
          kind: 'prompt',
          label: 'Write to file',
          help: 'Enter writes (mode 0600, never overwrites without asking) · Esc cancels',
          value: path,
          cursor: [...path].length,
          accept: (value) => this.writeResult(m, config, value, false),
        });
        return;
      }
      case 'copyConfig':
        if (m.config !== null) this.copy('the client config', m.config);
        return;
      case 'qr':
        if (m.config !== null) this.replaceModal(m, {...m, view: m.view === 'qr' ? 'config' : 'qr'});
        return;
      case 'done':
        this.openDialog({
          title: 'Leave the new device?',
          lines: [
            {
              text:
                m.config === null
                  ? 'The device exists on the server without a usable client config.'
                  : 'The private key is not stored anywhere and cannot be shown again.',
              tone: 'warning',
              bold: true,
            },
          ],
          choices: [
            {
              action: 'confirm',
              label: 'leave',
              run: () => {
                this.removeModal(m);
                this.afterWrite(`Device ${m.deviceName} created`, {screen: 'devices', id: m.deviceId});
              },
            },
            {action: 'cancel', label: 'stay'},
          ],
        });
        return;
      default:
    }
  }

  private async writeResult(result: ResultModal, config: string, path: string, overwrite: boolean): Promise<void> {
    const written = await writeConfigFile(path, config, {overwrite});
    const prompt = this.state.modals.find((x): x is PromptModal => x.kind === 'prompt') ?? null;
    if (written.ok) {
      if (prompt) this.removeModal(prompt);
      const current = this.current(result);
      if (current) this.replaceModal(current, {...current, saved: written.path});
      this.message({tone: 'ok', text: `Wrote ${written.path} (mode 0600)`});
    } else if (written.reason === 'exists') {
      this.message({tone: 'warning', text: written.message});
      this.openDialog({
        title: 'The file exists. Overwrite it?',
        lines: [{text: path}],
        choices: [
          {action: 'confirm', label: 'overwrite', run: () => this.writeResult(result, config, path, true)},
          {action: 'cancel', label: 'keep it'},
        ],
      });
    } else {
      this.message({tone: 'error', text: written.message});
    }
  }

  private promptAction(action: Action): void {
    const m = topModal(this.state);
    if (m?.kind !== 'prompt') return;
    if (action === 'cancel') this.removeModal(m);
    else if (action === 'accept') void m.accept(m.value);
  }
}
