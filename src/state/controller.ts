// The console's behaviour without React: the store, live polling, and every key press. A key is
// resolved through the keymap (src/state/input/keymap.ts) against the scope stack — the innermost modal,
// else help › filter › configuration/detail/list › global — and runs one handler here or in the
// active resource's module (src/state/resources/*). Read-only mode is checked once, here, from the
// binding's `writes` flag. Plain TypeScript: unit tests drive it without Ink.
import {ApiError} from '../api/index.js';
import {ActivityTracker} from './tracking/tracker.js';
import {type ActivityEvent} from './tracking/events.js';
import {plainSafe} from '../common/display-safe.js';
import {osc52Copy} from '../wireguard/index.js';
import {errorText, type ConsoleState, type ListScreenId, type StatusMessage} from './core/state.js';
import {Store} from './core/store.js';
import {topModal, type DialogModal, type FormModal, type Modal, type ResultModal} from './core/modals.js';
import {type ConsoleClient, type ConsoleSettings} from './core/context.js';
import {initialMarks, pruneMarks} from './lists/marks.js';
import {reportAction} from './interactions/report.js';
import {fetchAll} from './data/fetch.js';
import {TrafficHistory} from './tracking/traffic-history.js';
import {GhostRows, notingWrites, StaleRows} from './tracking/live-activity.js';
import {DEFAULT_STALE_DAYS} from './screens/devices/stale.js';
import {editFocused, focusedSpec} from './interactions/form.js';
import {bindingFor, displayKey, hintsFor, type Action, type Binding, type Scope} from './input/keymap.js';
import type {ListView} from './lists/list-view.js';
import {askClose, formAction, formFailed} from './interactions/form-actions.js';
import {dialogAction} from './interactions/dialog.js';
import {openPicker, pickerAction} from './interactions/picker-actions.js';
import {promptAction} from './interactions/prompt.js';
import {resultAction} from './screens/devices/result.js';
import {detailAction, filterAction, listAction} from './lists/actions.js';
import {globalAction, helpAction} from './input/global.js';
import {needsClock, Poller, type PollStatus} from './data/poller.js';
import {buildSnapshot, type FetchedData, type Snapshot} from './data/snapshot.js';
import {activity} from './screens/activity/screen.js';
import {configurationResource} from './screens/configuration/screen.js';
import {devices} from './screens/devices/screen.js';
import {rules} from './screens/rules/screen.js';
import type {ActionContext, ListSources, ResourceColumn, ResourceSpec} from './screens/spec.js';
import {users} from './screens/users/screen.js';
import {editText, isPrintable} from './input/textedit.js';
import {effectiveSelection, initialListState, ListViewCache, type ListUiState} from './lists/view-state.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySpec = ResourceSpec<any>;
export const RESOURCES: Record<ListScreenId, AnySpec> = {devices, users, rules, activity};

export interface ConsoleIO {
  /** The console's own sequences (the OSC 52 of a copy) straight to the terminal. */
  writeRaw(data: string): void;
  exit(): void;
  /** Re-reads the token where it came from (a profile's tokenFile or tokenCommand); null when it cannot. */
  reloadToken?: () => Promise<string | null>;
  /** `--activity-log`: appends each batch of events (src/state/tracking/activity-log.ts); throws on a write error. */
  activityLog?: {append(events: readonly ActivityEvent[]): string | null};
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
  /** Items on the list before the filter (the stale view counts only stale devices). */
  total: number;
}

// Rows the shell takes besides the body: header, tabs, info line, status bar, and the one spare
// row that keeps Ink 6 from clearing the whole screen on every frame (docs/architecture.md).
export const CHROME_ROWS = 4;

/** A key that types text: printable characters, not a named key such as `tab` or `enter`. */
function typed(name: string, input: string): boolean {
  return name === input && isPrintable(input) && !/[\t\r\n]/.test(input);
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
  poller: Poller<Snapshot> | null = null;
  private viewport = {columns: 100, rows: 30};
  private readonly caches: Record<ListScreenId, ListViewCache<unknown>>;
  private readonly columnsCache = new WeakMap<Snapshot, Map<ListScreenId, ResourceColumn<unknown>[]>>();
  private unsubscribeHold: (() => void) | null = null;
  /** Events and row highlights from consecutive polls (src/state/tracking/tracker.ts). */
  readonly tracker: ActivityTracker;
  /** Traffic over the session, for sparklines. */
  readonly history = new TrafficHistory();
  private readonly ghosts = new GhostRows();
  private readonly stale = new StaleRows();
  private eventsCache: {version: number; events: readonly ActivityEvent[]} = {version: -1, events: []};
  /** The Devices sort before the stale view took over, restored when it is left. */
  private sortBeforeStale: ListUiState['sort'] = null;
  readonly client: ConsoleClient;

  constructor(
    client: ConsoleClient,
    readonly settings: ConsoleSettings,
    readonly io: ConsoleIO,
    private firstData: Promise<FetchedData> | null = null,
  ) {
    this.tracker = new ActivityTracker({onEvents: (events) => this.logEvents(events)});
    // Every write of this console is noted, so the poll that shows it reports it "by you".
    this.client = notingWrites(client, this.tracker);
    this.store = new Store<ConsoleState>({
      screen: 'devices',
      lists: {
        devices: initialListState(devices.defaultSort),
        users: initialListState(users.defaultSort),
        rules: initialListState(rules.defaultSort),
        activity: initialListState(activity.defaultSort),
      },
      configuration: {entry: 'defaults', reveal: false},
      help: {open: false, scroll: 0},
      modals: [],
      message: null,
      snapshot: null,
      poll: initialPoll(settings.refreshSeconds),
      clock: Date.now(),
      marks: initialMarks(),
      staleView: false,
    });
    const cache = (spec: AnySpec) => new ListViewCache<unknown>((item) => spec.getId(item));
    this.caches = {devices: cache(devices), users: cache(users), rules: cache(rules), activity: cache(activity)};
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

  /** Changes the state synchronously (every key sees what the previous one did). */
  set(change: (s: ConsoleState) => ConsoleState): void {
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
        const next = buildSnapshot(data, this.state.snapshot, Date.now());
        // The passes of onData's change detection and history over every row, in slices while the
        // cycle is still in flight; onData only writes what they found.
        await this.tracker.prepare(next, next.fetchedAt);
        await this.history.prepare(next, next.fetchedAt);
        await this.caches.devices.prepareIndex(next.devices);
        return next;
      },
      onData: (next) => {
        this.tokenReloaded = false;
        const before = this.state.message;
        let message = before;
        if (next.issues.length > 0) {
          const first = next.issues[0]!;
          message = {
            tone: 'warning',
            text: `Unexpected data from the server: ${first.path}: ${first.message}${next.issues.length > 1 ? ` (+${next.issues.length - 1} more)` : ''}; the rest is shown`,
          };
        } else if (before && before.tone === 'error' && before.text.startsWith('Refresh failed')) {
          message = {tone: 'ok', text: 'Connection restored'};
        }
        // Change detection and history before the store changes, so the frame that shows the new
        // data shows its highlights too.
        this.tracker.observe(next, next.fetchedAt);
        this.history.record(next, next.fetchedAt);
        const pruned = pruneMarks(this.state.marks, next);
        if (pruned.dropped && message === before) message = {tone: 'warning', text: `${pruned.dropped[0]!.toUpperCase()}${pruned.dropped.slice(1)}`};
        this.set((s) => ({...s, snapshot: next, clock: Date.now(), marks: pruned.marks}));
        // Through message(), so "Connection restored" fades like any other success.
        if (message !== before) this.message(message);
      },
      onStatus: (status) => {
        this.set((s) => ({
          ...s,
          poll: status,
          // The header reads its age from this clock: a new status (paused → live) starts from now.
          clock: Date.now(),
          message:
            status.lastError && status.failures > 0 && !status.inFlight ? {tone: 'error', text: `Refresh failed: ${errorText(status.lastError)}`} : s.message,
        }));
        this.keepClock(needsClock(status));
        if (status.lastError instanceof ApiError && status.lastError.isAuthFailure && !status.inFlight) void this.tokenRejected(status.lastError);
      },
    });
    this.poller = poller;
    // Live updates hold while help, a form or a dialog is open, so nothing moves under the admin.
    const unsubscribeHold = this.store.subscribe(() => poller.setHeld(this.state.help.open || this.state.modals.length > 0));
    const unsubscribeWarm = this.store.subscribe(() => this.noticeItemsForSorting());
    this.unsubscribeHold = () => {
      unsubscribeHold();
      unsubscribeWarm();
    };
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

  private logFailed = false;

  /** `--activity-log`: a write error is said once (until a write works again) and the console goes on. */
  private logEvents(events: readonly ActivityEvent[]): void {
    if (!this.io.activityLog) return;
    const failure = this.io.activityLog.append(events);
    if (failure && !this.logFailed) this.message({tone: 'error', text: `${failure}; the events are still listed on screen 5`});
    this.logFailed = failure !== null;
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

  // ---- sorting ahead of time (docs/architecture.md, "Sorting 50k rows") -------------------------

  /** Lists this long have their columns ordered ahead of time; shorter ones sort well within a frame. */
  static readonly WARM_SORT_MIN_ITEMS = 5000;
  /** How long a step may read a column's values; the ordering itself is one more step (5–30 ms at 50k). */
  static readonly WARM_SORT_STEP_MS = 6;
  private warmTimer: ReturnType<typeof setTimeout> | null = null;
  private warmTarget: {screen: ListScreenId; items: readonly unknown[]; columns: ResourceColumn<unknown>[]} | null = null;

  /** New items on screen (a poll, another list, the stale view): order them by every column, a column a step. */
  private noticeItemsForSorting(): void {
    const state = this.state;
    const snap = state.snapshot;
    const screen = state.screen;
    if (!snap || screen === 'configuration') return;
    const items = this.items(screen, state);
    const columns = this.columns(screen, snap);
    const target = this.warmTarget;
    if (target && target.screen === screen && target.items === items && target.columns === columns) return;
    this.warmTarget = {screen, items, columns};
    if (items.length >= Controller.WARM_SORT_MIN_ITEMS && !this.warmTimer) this.scheduleSortStep();
  }

  private scheduleSortStep(): void {
    // A timer, not a loop: keys that arrived meanwhile are handled between two columns.
    this.warmTimer = setTimeout(() => {
      this.warmTimer = null;
      const target = this.warmTarget;
      if (
        target &&
        target.items.length >= Controller.WARM_SORT_MIN_ITEMS &&
        !this.caches[target.screen].warm(target.items, target.columns, Controller.WARM_SORT_STEP_MS)
      )
        this.scheduleSortStep();
    }, 0);
    this.warmTimer.unref?.();
  }

  stop(): void {
    if (this.warmTimer) clearTimeout(this.warmTimer);
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

  /** The Activity screen's events, newest first; the same array until new events arrive. */
  private sources(): ListSources {
    const version = this.tracker.events.version;
    if (this.eventsCache.version !== version) this.eventsCache = {version, events: this.tracker.events.list()};
    return {events: this.eventsCache.events};
  }

  /** A list's items: the stale devices in the stale view, and rows deleted a moment ago, marked, until they fade. */
  items(screen: ListScreenId, state: ConsoleState = this.state): readonly unknown[] {
    const snap = state.snapshot;
    if (!snap) return [];
    if (screen === 'activity') return activity.items(snap, this.sources());
    if (screen === 'devices' && state.staleView) return this.stale.rows(snap, state.clock, this.settings.staleDays ?? DEFAULT_STALE_DAYS);
    const spec = RESOURCES[screen];
    return this.ghosts.items(screen, spec.items(snap, this.sources()), this.tracker, state.clock, (x) => spec.getId(x));
  }

  /** The list, its selection and open detail for a screen; memoised per (items, filter, sort). */
  list(screen: ListScreenId, state: ConsoleState = this.state): ListDerived | null {
    const snap = state.snapshot;
    if (!snap) return null;
    const spec = RESOURCES[screen];
    const st = state.lists[screen];
    const columns = this.columns(screen, snap);
    const items = this.items(screen, state);
    const view = this.caches[screen].get(items, st, columns);
    const selection = effectiveSelection(view, st);
    let detailItem: unknown = null;
    if (st.detailId) {
      // The view's index finds it without a scan; a detail filtered out of the view falls back to one.
      const at = view.indexOf(st.detailId);
      detailItem = at >= 0 ? view.rows[at] : (items.find((x: unknown) => spec.getId(x) === st.detailId) ?? null);
    }
    return {spec, state: st, columns, view, selection, detailItem, total: items.length};
  }

  /** `S` on Devices: only stale devices, oldest first; again: all devices with the sort as it was. */
  toggleStaleView(): void {
    const entering = !this.state.staleView;
    const days = this.settings.staleDays ?? DEFAULT_STALE_DAYS;
    if (entering) this.sortBeforeStale = this.state.lists.devices.sort;
    this.set((s) => ({
      ...s,
      staleView: entering,
      lists: {...s.lists, devices: {...s.lists.devices, sort: entering ? null : this.sortBeforeStale, filter: '', filtering: false}},
    }));
    this.message({
      tone: 'info',
      text: entering ? `Stale devices: never connected, or no handshake for ${days} days (--stale-days), oldest first; S shows all` : 'All devices',
    });
  }

  activeList(): ListDerived | null {
    const screen = this.state.screen;
    return screen === 'configuration' ? null : this.list(screen);
  }

  updateList(screen: ListScreenId, change: (st: ListUiState) => ListUiState): void {
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
      case 'import':
        return state.screen === 'users';
      case 'exportSecrets':
      case 'stale':
        return state.screen === 'devices';
      case 'mark':
      case 'markAll':
        // Marks serve bulk work; events are not objects to act on.
        return spec.actions.delete !== undefined;
      default:
        return true;
    }
  }

  hints(state: ConsoleState = this.state): string {
    if (!state.snapshot && topModal(state) === null && !state.help.open) return hintsFor(['global'], (b) => this.available(b, state));
    const scopes = this.scopes(state);
    const hints = hintsFor(scopes, (b) => this.available(b, state));
    const marked = scopes[0] === 'list' && state.screen !== 'configuration' ? state.marks[state.screen].size : 0;
    // While rows are marked, what acts on them comes first: the count, and how to act or let go.
    return marked > 0 ? `${marked} marked: d delete · Esc unmark  ${hints}` : hints;
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
    if (!this.available({...binding, writes: false})) {
      // A key that does something on another screen says so instead of doing nothing.
      this.message({tone: 'info', text: `${displayKey(name)} does nothing here (${binding.help.replace(/^users: /, 'Users only: ')})`});
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
      case 'import':
        return 'importing users';
      default:
        return 'writing';
    }
  }

  /** A bracketed paste: one insertion where text goes; in a list it opens the filter with it. */
  paste(text: string): void {
    const m = topModal(this.state);
    // A paste copied from a terminal or a password manager often ends in a line break: it is not
    // part of a one-line value (a trailing space in a client secret would break sign-in).
    const oneLine = text.replace(/^[\r\n]+|[\r\n]+$/g, '').replace(/[\r\n\t]+/g, ' ');
    if (m?.kind === 'form') {
      const spec = focusedSpec(m.form);
      if (spec?.kind === 'picker') {
        openPicker(this, m, spec.key, oneLine.trim());
        return;
      }
      const edited = editFocused(m.form, 'paste', spec?.multiline ? text : oneLine);
      if (edited) this.replaceModal(m, {...m, form: edited});
      else this.message({tone: 'warning', text: `Paste ignored: ${spec?.label ?? 'this field'} does not take text`});
      return;
    }
    if (m?.kind === 'picker') {
      this.replaceModal(m, {...m, filter: m.filter + oneLine, index: 0});
      return;
    }
    if (m?.kind === 'prompt') {
      const edited = editText({value: m.value, cursor: m.cursor}, 'paste', oneLine);
      if (edited) this.replaceModal(m, {...m, value: edited.value, cursor: edited.cursor});
      return;
    }
    const list = m === null && !this.state.help.open ? this.activeList() : null;
    if (list && !list.state.detailId) {
      // In the filter it is typed; on a list it opens the filter with it (a key from `wg show`).
      const filtering = list.state.filtering;
      this.updateList(list.spec.id, (st) => ({...st, filtering: true, filter: filtering ? st.filter + oneLine : oneLine.trim()}));
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
        openPicker(this, m, spec.key, input);
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
      // The same line editing as form fields (Backspace, Ctrl-U, Ctrl-W …), the cursor at the end.
      const filter = s.lists[screen].filter;
      if (!typed(name, input) && !['backspace', 'ctrl+u', 'ctrl+w'].includes(name)) return false;
      const edited = editText({value: filter, cursor: [...filter].length}, name, input);
      if (edited) this.updateList(screen, (st) => ({...st, filter: edited.value}));
      return true;
    }
    return false;
  }

  /** A key nothing took. Printable keys on a form field that takes no text say why. */
  private unbound(name: string, input: string): void {
    const m = topModal(this.state);
    if (m?.kind !== 'form' || !typed(name, input)) return;
    if (name === 'q') {
      askClose(this, m, 'quit');
      return;
    }
    const spec = focusedSpec(m.form);
    const how = spec?.kind === 'toggle' ? 'Space toggles it' : spec?.kind === 'choice' ? '←/→ choose a value' : 'it takes no text';
    this.message({tone: 'info', text: `${spec?.label.trim() ?? 'This field'}: ${how}`});
  }

  private run(scope: Scope, action: Action): void {
    switch (scope) {
      case 'form':
        return formAction(this, action);
      case 'picker':
        return pickerAction(this, action);
      case 'dialog':
        return dialogAction(this, action);
      case 'result':
        return resultAction(this, action);
      case 'prompt':
        return promptAction(this, action);
      case 'report':
        return reportAction(this, action);
      case 'help':
        return helpAction(this, action);
      case 'filter':
        return filterAction(this, action);
      case 'configuration':
        return configurationResource.run(this, action);
      case 'detail':
        return detailAction(this, action);
      case 'list':
        return listAction(this, action);
      case 'global':
        return globalAction(this, action);
    }
  }

  // ---- global, help, lists, details ------------------------------------------------------------

  /** A failed save: a 422 lands on the form's fields, anything else in the status bar (see modal-actions.ts). */
  formFailed(form: FormModal, err: unknown): void {
    formFailed(this, form, err);
  }

  /** Help lines and how many fit are the UI's; it tells the controller the maximum scroll. */
  helpMaxScroll = 0;
  /** How many lines of the open report the UI fits from its scroll position (they wrap): a report's page. */
  reportShown = 1;

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

  /** Opens a modal on top; returns it with its key, to find it again after the stack changed. */
  push<M extends Modal>(modal: M): M {
    const keyed = {...modal, key: this.nextKey++};
    this.set((s) => ({...s, modals: [...s.modals, keyed]}));
    return keyed;
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
    this.updateList(screen, (st) => ({...st, detailId: null, detailScroll: 0, detailEntry: null, returnTo: null, reveal: false}));
  }

  /** Opens a detail; `from` is the screen whose detail led here, where Esc returns. */
  openDetail(screen: ListScreenId, id: string, from: ListScreenId | null = null): void {
    this.set((s) => ({
      ...s,
      screen,
      lists: {
        ...s.lists,
        [screen]: {...s.lists[screen], selectedId: id, detailId: id, detailScroll: 0, detailEntry: null, reveal: false, returnTo: from},
      },
    }));
  }

  /** The form being edited, current (the stack may have changed while a save was in flight). */
  current<M extends Modal>(modal: M): M | null {
    return (this.state.modals.find((m) => m.key === modal.key) as M | undefined) ?? null;
  }
}
