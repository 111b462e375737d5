// The composition root of the console below the UI: it builds the store, the refresh pipeline, the
// change tracking and the list screens, implements the ConsoleContext that every handler is given,
// and hands key presses to the dispatch (src/state/input/dispatch.ts). It holds no behaviour of a
// screen or a modal of its own; nothing in src/state imports it (lint enforces both: see
// docs/architecture.md, "The console context"). Plain TypeScript: tests drive it without Ink.
import {ApiError, type Configuration} from '../api/index.js';
import type {ConsoleClient, ConsoleContext, ConsoleIO, ConsoleSettings, InputRead, ListDerived, TokenRetry} from './core/context.js';
import type {DrawnEntries, DrawnForm, DrawnTab} from './core/drawn.js';
import {Layout, type TablePlacement} from './core/layout.js';
import type {DialogModal, FormModal, Modal, ResultModal} from './core/modals.js';
import {boundedMessage, type ConsoleState, type ListScreenId, type StatusMessage} from './core/state.js';
import {Store} from './core/store.js';
import {initialState} from './initial-state.js';
import {UndoLog} from './undo/undo-log.js';
import {needsClock, type PollStatus} from './data/poller.js';
import {RefreshPipeline, type PollSink} from './data/refresh-pipeline.js';
import {asRead, SavedConfiguration} from './data/saved-configuration.js';
import type {FetchedData, Snapshot} from './data/snapshot.js';
import type {InputEvent} from './input/decoder.js';
import {KeyReads} from './input/reads.js';
import {acceptsText, hints} from './input/scopes.js';
import {copyToClipboard} from './interactions/clipboard.js';
import {TokenRecovery} from './interactions/token-prompt.js';
import {pruneMarks} from './lists/marks.js';
import {ScreenLists} from './lists/screen-lists.js';
import type {ListUiState} from './lists/view-state.js';
import {WarmSorter} from './lists/warm-sort.js';
import {SCREEN_SPECS} from './screens/index.js';
import {LogStatus} from './tracking/log-status.js';
import {pollMessage, refreshFailed} from './data/poll-messages.js';
import {notingWrites} from './tracking/live-activity.js';
import {ActivityTracker} from './tracking/tracker.js';
import {TrafficHistory} from './tracking/traffic-history.js';

export type {ConsoleIO, ListDerived};

export class Controller implements ConsoleContext, PollSink {
  /** Info and success messages (and warnings marked `fades`) fade after this long so the key hints come back; errors stay. */
  static readonly MESSAGE_FADE_MS = 6000;

  readonly store: Store<ConsoleState>;
  readonly client: ConsoleClient;
  readonly layout = new Layout();
  /** Deletes of this session, to take back (`u`, `:undo`); in memory only. */
  readonly undo = new UndoLog();
  /** Events and row highlights from consecutive polls (src/state/tracking/tracker.ts). */
  readonly tracker: ActivityTracker;
  /** Traffic over the session, for sparklines. */
  readonly history = new TrafficHistory();
  private readonly lists: ScreenLists;
  private readonly warmSorter: WarmSorter;
  private readonly refreshPipeline: RefreshPipeline;
  private readonly tokens: TokenRecovery;
  private readonly savedConfiguration = new SavedConfiguration();
  private readonly reads = new KeyReads(this);
  private unsubscribe: Array<() => void> = [];
  private fadeTimer: ReturnType<typeof setTimeout> | null = null;
  private clockTimer: ReturnType<typeof setInterval> | null = null;
  private readonly logStatus: LogStatus;
  private nextModalKey = 1;

  constructor(
    client: ConsoleClient,
    readonly settings: ConsoleSettings,
    readonly io: ConsoleIO,
    firstData: Promise<FetchedData> | null = null,
  ) {
    this.tracker = new ActivityTracker({onEvents: (events) => this.logStatus.append(events)});
    this.logStatus = new LogStatus(io.activityLog, this.tracker.events.capacity, (message) => this.message(message));
    // Every write of this console is noted, so the poll that shows it reports it "by you".
    this.client = notingWrites(client, this.tracker);
    this.store = new Store(initialState(settings));
    this.lists = new ScreenLists(SCREEN_SPECS, this.tracker, () => this.state.clock, settings);
    this.warmSorter = new WarmSorter((screen) => this.lists.cache(screen));
    this.refreshPipeline = new RefreshPipeline(
      this.client,
      {tracker: this.tracker, history: this.history, shownList: {prepare: (next) => this.lists.prepare(this.state.screen, next, this.state)}},
      this.savedConfiguration,
      firstData,
    );
    this.tokens = new TokenRecovery(this);
  }

  // ---- the context ------------------------------------------------------------------------------

  get state(): ConsoleState {
    return this.store.get();
  }

  get snapshot(): Snapshot {
    const s = this.state.snapshot;
    if (!s) throw new Error('no data yet');
    return s;
  }

  set(change: (s: ConsoleState) => ConsoleState): void {
    this.store.update(change);
  }

  message(shown: StatusMessage | null): void {
    const message = shown && boundedMessage(shown);
    this.set((s) => ({...s, message}));
    if (this.fadeTimer) clearTimeout(this.fadeTimer);
    this.fadeTimer = null;
    if (message && (message.tone === 'info' || message.tone === 'ok' || message.fades)) {
      this.fadeTimer = setTimeout(() => {
        this.fadeTimer = null;
        if (this.state.message === message) this.set((s) => ({...s, message: null}));
      }, Controller.MESSAGE_FADE_MS);
      this.fadeTimer.unref?.();
    }
  }

  get inputRead(): InputRead {
    return this.reads.current;
  }

  push<M extends Modal>(modal: M): M {
    const keyed = {...modal, key: this.nextModalKey++, openedInRead: this.reads.current.number};
    this.set((s) => ({...s, modals: [...s.modals, keyed]}));
    return keyed;
  }

  replaceModal(old: Modal, next: Modal): void {
    this.set((s) => (s.modals.some((m) => m.key === old.key) ? {...s, modals: s.modals.map((m) => (m.key === old.key ? {...next, key: old.key} : m))} : s));
  }

  removeModal(modal: Modal): void {
    this.set((s) => (s.modals.some((m) => m.key === modal.key) ? {...s, modals: s.modals.filter((m) => m.key !== modal.key)} : s));
  }

  current<M extends Modal>(modal: M): M | null {
    return (this.state.modals.find((m) => m.key === modal.key) as M | undefined) ?? null;
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

  copy(label: string, value: string, options: {lines?: boolean} = {}): void {
    copyToClipboard(this, label, value, options);
  }

  refresh(options: {ifIdle?: boolean} = {}): void {
    this.refreshPipeline.refresh(options);
  }

  togglePause(): boolean | null {
    return this.refreshPipeline.togglePause();
  }

  configurationSaved(answer: Configuration, base: Configuration): void {
    const saved = asRead(answer);
    this.savedConfiguration.saved(saved);
    this.tracker.noteConfigurationSave({base, saved});
    this.set((s) => (s.snapshot ? {...s, snapshot: {...s.snapshot, configuration: saved}} : s));
  }

  tokenRejected(err: ApiError, retry: TokenRetry): boolean {
    if (!this.client.setToken) return false;
    void this.tokens.rejected(err, retry);
    return true;
  }

  afterWrite(text: string, select?: {screen: ListScreenId; id: string}): void {
    this.undo.noteWrite(text);
    this.message({tone: 'ok', text});
    if (select) this.updateList(select.screen, (st) => ({...st, selectedId: select.id}));
    this.refresh();
  }

  openDetail(screen: ListScreenId, id: string, from: ListScreenId | null = null): void {
    this.set((s) => ({
      ...s,
      screen,
      lists: {...s.lists, [screen]: {...s.lists[screen], selectedId: id, detailId: id, detailScroll: 0, detailEntry: null, reveal: false, returnTo: from}},
    }));
  }

  leaveDetail(screen: ListScreenId): void {
    this.updateList(screen, (st) => ({...st, detailId: null, detailScroll: 0, detailEntry: null, returnTo: null, reveal: false}));
  }

  list(screen: ListScreenId, state: ConsoleState = this.state): ListDerived | null {
    return this.lists.list(screen, state);
  }

  activeList(): ListDerived | null {
    const screen = this.state.screen;
    return screen === 'configuration' ? null : this.list(screen);
  }

  updateList(screen: ListScreenId, change: (st: ListUiState) => ListUiState): void {
    this.set((s) => ({...s, lists: {...s.lists, [screen]: change(s.lists[screen])}}));
  }

  // ---- for the UI -------------------------------------------------------------------------------

  /** One read of the terminal, decoded (src/ui/keys.ts): one change of the store, one render. */
  read(events: readonly InputEvent[], read: number): void {
    this.store.batch(() => this.reads.handle(events, read));
  }

  /** The keys that follow came in terminal read `read`, which carried `presses` keys (tests drive reads by hand). */
  beginRead(read: number, presses: number): void {
    this.reads.begin(read, presses);
  }

  /** The read's keys have all been handled. */
  endRead(): void {
    this.store.batch(() => this.reads.end());
  }

  /** One key press, by normalised name (`j`, `enter`, `ctrl+s`) and its raw input. */
  key(name: string, input: string): void {
    this.store.batch(() => this.reads.key(name, input));
  }

  /** A bracketed paste: one insertion where text goes. */
  paste(text: string): void {
    this.store.batch(() => this.reads.paste(text));
  }

  /** Whether printable keys here are text (a field, a filter, a picker, a prompt), not commands. */
  acceptsText(): boolean {
    return acceptsText(this.state);
  }

  hints(state: ConsoleState = this.state): string {
    return hints(state, this.settings.readOnly);
  }

  /** The terminal's size, as the UI renders it. */
  setViewport(columns: number, rows: number): void {
    this.layout.setViewport(columns, rows);
  }

  bodyHeight(): number {
    return this.layout.bodyHeight();
  }

  /** The open help's lines less the rows that show them: how far it can scroll. */
  measuredHelp(maxScroll: number): void {
    this.layout.helpMaxScroll = maxScroll;
  }

  /** How many lines of the open report fit from its scroll position (a report's page), and the line its last page starts at. */
  measuredReport(page: number, lastPage = Number.POSITIVE_INFINITY): void {
    this.layout.reportPage = page;
    this.layout.reportLastPage = lastPage;
  }

  // Where the frame drew what a click can land on (src/state/core/drawn.ts). Bound, so that the UI
  // can hand them to memoised components as they are.

  /** The tabs line's tabs, as Tabs drew them. */
  readonly measuredTabs = (tabs: readonly DrawnTab[]): void => this.layout.measuredTabs(tabs);

  /** Where a list's table is drawn (its scroll offset comes from the table: measuredTableTop). */
  readonly measuredTable = (placement: TablePlacement): void => this.layout.measuredTable(placement);

  /** The first item row the list's table drew (its scroll offset), once it has drawn. */
  readonly measuredTableTop = (screen: ListScreenId, top: number): void => this.layout.measuredTableTop(screen, top);

  /** The rows a form's fields were drawn on. */
  readonly measuredForm = (form: DrawnForm): void => this.layout.measuredForm(form);

  /** The rows the Configuration's entries, or a detail's, were drawn on. */
  readonly measuredEntries = (entries: DrawnEntries): void => this.layout.measuredEntries(entries);

  // ---- live updates -----------------------------------------------------------------------------

  start(): void {
    this.refreshPipeline.start(this, this.settings.refreshSeconds * 1000);
    this.unsubscribe = [
      // Live updates hold while help, a form or a dialog is open, so nothing moves under the admin.
      this.store.react(() => this.refreshPipeline.setHeld(this.state.help.open || this.state.modals.length > 0)),
      // New items on screen (a poll, another list, the stale view): long lists are sorted ahead.
      this.store.subscribe(() =>
        this.warmSorter.noticeState(
          this.state,
          (screen) => this.lists.items(screen, this.state),
          (screen, snapshot) => this.lists.columns(screen, snapshot),
          (screen) => this.lists.fades(screen),
        ),
      ),
    ];
    if (this.settings.notice) this.message({tone: 'ok', text: this.settings.notice});
    // A half line that opening the log had to end (a full disk, a crash) is said where the admin looks.
    const mended = this.io.activityLog?.takeStartNote?.() ?? null;
    if (mended) this.message({tone: 'warning', text: mended});
  }

  stop(): void {
    this.warmSorter.stop();
    this.keepClock(false);
    if (this.fadeTimer) clearTimeout(this.fadeTimer);
    this.refreshPipeline.stop();
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
  }

  // ---- the poll sink (src/state/data/refresh-pipeline.ts) --------------------------------------

  shownSnapshot(): Snapshot | null {
    return this.state.snapshot;
  }

  batch(work: () => void): void {
    this.store.batch(work);
  }

  /** A poll's snapshot into the store, with what the admin should be told about it. */
  showPoll(next: Snapshot): void {
    this.tokens.accepted();
    const pruned = pruneMarks(this.state.marks, next, SCREEN_SPECS);
    const message = pollMessage(this.state.message, next, this.tracker.listedTwice, pruned.dropped, this.state.snapshot?.hidden ?? null);
    this.set((s) => ({...s, snapshot: next, clock: Date.now(), marks: pruned.marks}));
    // Through message(), so "Connection restored" fades like any other success.
    if (message !== this.state.message) this.message(message);
  }

  /** The poller's state: the header shows it; a failure is said on the status line. */
  showStatus(status: PollStatus): void {
    this.set((s) => ({
      ...s,
      poll: status,
      // The header reads its age from this clock: a new status (paused → live) starts from now.
      clock: Date.now(),
      message: status.lastError && status.failures > 0 && !status.inFlight && s.message?.outcome !== 'unknown' ? refreshFailed(status) : s.message,
    }));
    this.keepClock(needsClock(status));
    if (status.lastError instanceof ApiError && status.lastError.isAuthFailure && !status.inFlight) void this.tokens.rejected(status.lastError);
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
}
