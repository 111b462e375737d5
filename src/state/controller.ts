// The composition root of the console below the UI: it builds the store, the refresh pipeline, the
// change tracking and the list screens, implements the ConsoleContext that every handler is given,
// and hands key presses to the dispatch (src/state/input/dispatch.ts). It holds no behaviour of a
// screen or a modal of its own; nothing in src/state imports it (lint enforces both: see
// docs/architecture.md, "The console context"). Plain TypeScript: tests drive it without Ink.
import {ApiError, type Configuration} from '../api/index.js';
import type {ConsoleClient, ConsoleContext, ConsoleIO, ConsoleSettings, InputRead, ListDerived, TokenRetry} from './core/context.js';
import {codePoints} from './input/limits.js';
import {Layout} from './core/layout.js';
import type {DialogModal, FormModal, Modal, ResultModal} from './core/modals.js';
import {boundedMessage, CLOSED_HELP, errorText, type ConsoleState, type ListScreenId, type StatusMessage} from './core/state.js';
import {Store} from './core/store.js';
import {UndoLog} from './undo/undo-log.js';
import {needsClock, Poller, type PollStatus} from './data/poller.js';
import {RefreshPipeline} from './data/refresh-pipeline.js';
import {asRead, SavedConfiguration} from './data/saved-configuration.js';
import type {FetchedData, Snapshot} from './data/snapshot.js';
import {keyPress, paste} from './input/dispatch.js';
import {displayKey} from './input/keymap.js';
import {acceptsText, hints} from './input/scopes.js';
import {copyToClipboard} from './interactions/clipboard.js';
import {TokenRecovery} from './interactions/token-prompt.js';
import {initialMarks, pruneMarks} from './lists/marks.js';
import {ScreenLists} from './lists/screen-lists.js';
import {initialListState, type ListUiState} from './lists/view-state.js';
import {WarmSorter} from './lists/warm-sort.js';
import {SCREEN_SPECS} from './screens/index.js';
import {notRecordedText} from './tracking/activity-log.js';
import {listedTwiceText} from './tracking/id-pairing.js';
import type {ActivityEvent} from './tracking/events.js';
import {notingWrites} from './tracking/live-activity.js';
import {ActivityTracker} from './tracking/tracker.js';
import {TrafficHistory} from './tracking/traffic-history.js';

export type {ConsoleIO, ListDerived};

function initialState(settings: ConsoleSettings): ConsoleState {
  const poll: PollStatus = {
    mode: 'loading',
    lastOkAt: null,
    nextAt: null,
    failures: 0,
    lastError: null,
    inFlight: true,
    held: false,
    paused: false,
    intervalMs: settings.refreshSeconds * 1000,
    retryStopped: false,
  };
  const lists = {} as Record<ListScreenId, ListUiState>;
  for (const spec of Object.values(SCREEN_SPECS)) lists[spec.id] = initialListState(spec.defaultSort);
  return {
    screen: 'devices',
    lists,
    configuration: {entry: 'defaults', reveal: false},
    help: CLOSED_HELP,
    modals: [],
    message: null,
    snapshot: null,
    poll,
    clock: Date.now(),
    marks: initialMarks(),
    command: null,
    commandHistory: [],
    sidePanel: false,
  };
}

export class Controller implements ConsoleContext {
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
  private poller: Poller<{snapshot: Snapshot; began: number}> | null = null;
  private readonly savedConfiguration = new SavedConfiguration();
  private unsubscribe: Array<() => void> = [];
  private fadeTimer: ReturnType<typeof setTimeout> | null = null;
  private clockTimer: ReturnType<typeof setInterval> | null = null;
  /** Events of `--activity-log` batches that failed since its last good write. */
  private logNotRecorded = 0;
  private nextModalKey = 1;
  private currentRead: InputRead = {number: 0, presses: 0};
  /**
   * Set once a key of a read of several did nothing: the rest of that read is not run (counted).
   * `said`: what the status line said when that key was handled (its own refusal, if it made one).
   */
  private readStopped: {key: string; said: StatusMessage | null; dropped: number} | null = null;

  constructor(
    client: ConsoleClient,
    readonly settings: ConsoleSettings,
    readonly io: ConsoleIO,
    firstData: Promise<FetchedData> | null = null,
  ) {
    this.tracker = new ActivityTracker({onEvents: (events) => this.logEvents(events)});
    // Every write of this console is noted, so the poll that shows it reports it "by you".
    this.client = notingWrites(client, this.tracker);
    this.store = new Store(initialState(settings));
    this.lists = new ScreenLists(SCREEN_SPECS, this.tracker, () => this.state.clock, settings);
    this.warmSorter = new WarmSorter((screen) => this.lists.cache(screen));
    this.refreshPipeline = new RefreshPipeline(
      this.client,
      {tracker: this.tracker, history: this.history, shownList: {prepare: (next) => this.lists.prepare(this.state.screen, next, this.state)}},
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
    return this.currentRead;
  }

  push<M extends Modal>(modal: M): M {
    const keyed = {...modal, key: this.nextModalKey++, openedInRead: this.currentRead.number};
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
    if (options.ifIdle) this.poller?.refreshIfIdle();
    else this.poller?.refreshNow();
  }

  togglePause(): boolean | null {
    if (!this.poller) return null;
    this.poller.togglePause();
    return this.poller.current.paused;
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

  /** The keys that follow came in terminal read `read`, which carried `presses` keys, pastes and sequences (src/ui/keys.ts). */
  beginRead(read: number, presses: number): void {
    this.currentRead = {number: read, presses};
    this.readStopped = null;
  }

  /**
   * The read's keys have all been handled. Keys dropped after one that did nothing are said: a
   * key that does nothing where it lands (`/` in a detail) does not let the rest of its read run
   * as commands (the filter `owner:dana` typed fast once opened Edit with its `e`).
   */
  endRead(): void {
    const stopped = this.readStopped;
    this.readStopped = null;
    if (!stopped || stopped.dropped === 0) return;
    const n = stopped.dropped;
    const after = `the ${n === 1 ? 'key' : `${n.toLocaleString('en-US')} keys`} that came after it in the same read ${n === 1 ? 'was' : 'were'} not run`;
    // The key's own refusal ("/ does nothing here (…)") is kept and told the rest; a key that said
    // nothing (a letter a dialog does not take) is named.
    const shown = this.state.message;
    if (shown && shown === stopped.said) this.message({...shown, text: `${shown.text}; ${after}`});
    else this.message({tone: 'warning', text: `${stopped.key} does nothing here, and ${after}`});
  }

  /** One key press, by normalised name (`j`, `enter`, `ctrl+s`) and its raw input. */
  key(name: string, input: string): void {
    if (this.readStopped) {
      this.readStopped.dropped += input.length > 1 ? codePoints(input) : 1;
      return;
    }
    const before = this.state.message;
    const taken = keyPress(this, name, input);
    if (taken || this.currentRead.presses <= 1) return;
    const said = this.state.message;
    this.readStopped = {key: input.length === 1 && input > ' ' ? `"${input}"` : displayKey(name), said: said !== before ? said : null, dropped: 0};
  }

  /** A bracketed paste: one insertion where text goes. */
  paste(text: string): void {
    if (this.readStopped) {
      this.readStopped.dropped++;
      return;
    }
    paste(this, text);
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

  // ---- live updates -----------------------------------------------------------------------------

  start(): void {
    const poller = new Poller<{snapshot: Snapshot; began: number}>({
      intervalMs: this.settings.refreshSeconds * 1000,
      fetch: async () => {
        const began = this.savedConfiguration.mark;
        return {snapshot: await this.refreshPipeline.poll(this.state.snapshot), began};
      },
      // A list over the body limit would be downloaded again, up to the limit, on every retry.
      retryable: (err) => !(err instanceof ApiError && err.kind === 'too_large'),
      onData: ({snapshot, began}) => this.applyPoll(snapshot, began),
      onStatus: (status) => {
        this.set((s) => ({
          ...s,
          poll: status,
          // The header reads its age from this clock: a new status (paused → live) starts from now.
          clock: Date.now(),
          message:
            status.lastError && status.failures > 0 && !status.inFlight && s.message?.outcome !== 'unknown'
              ? boundedMessage({
                  tone: 'error',
                  text: `Refresh failed: ${errorText(status.lastError)}${status.retryStopped ? ' (not retried by itself: r tries again)' : ''}`,
                })
              : s.message,
        }));
        this.keepClock(needsClock(status));
        if (status.lastError instanceof ApiError && status.lastError.isAuthFailure && !status.inFlight) void this.tokens.rejected(status.lastError);
      },
    });
    this.poller = poller;
    this.unsubscribe = [
      // Live updates hold while help, a form or a dialog is open, so nothing moves under the admin.
      this.store.subscribe(() => poller.setHeld(this.state.help.open || this.state.modals.length > 0)),
      // New items on screen (a poll, another list, the stale view): long lists are sorted ahead.
      this.store.subscribe(() => {
        const {snapshot, screen} = this.state;
        if (snapshot && screen !== 'configuration') this.warmSorter.notice(screen, this.lists.items(screen, this.state), this.lists.columns(screen, snapshot));
      }),
    ];
    poller.start();
    if (this.settings.notice) this.message({tone: 'ok', text: this.settings.notice});
    // A half line that opening the log had to end (a full disk, a crash) is said where the admin looks.
    const mended = this.io.activityLog?.takeStartNote?.() ?? null;
    if (mended) this.message({tone: 'warning', text: mended});
  }

  stop(): void {
    this.warmSorter.stop();
    this.keepClock(false);
    if (this.fadeTimer) clearTimeout(this.fadeTimer);
    this.poller?.stop();
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
  }

  /** A poll's snapshot into the store, with what the admin should be told about it. */
  private applyPoll(next: Snapshot, began: number): void {
    this.tokens.accepted();
    // Not shown yet, so set in place: the passes made ahead for this snapshot stay valid.
    next.configuration = this.savedConfiguration.over(next.configuration, began);
    const before = this.state.message;
    let message = before;
    if (next.issues.length > 0) {
      const first = next.issues[0]!;
      const more = next.issues.length > 1 ? ` (+${next.issues.length - 1} more)` : '';
      message = {tone: 'warning', text: `Unexpected data from the server: ${first.path}: ${first.message}${more}; the rest is shown`};
    } else if (before && before.tone === 'error' && before.text.startsWith('Refresh failed')) {
      message = {tone: 'ok', text: 'Connection restored'};
    }
    this.refreshPipeline.observe(next);
    // A list that repeats an id is the server's error, and Activity and the highlights skip it: said, over any other note.
    const twice = this.tracker.listedTwice;
    if (twice.length > 0) {
      const more =
        twice.length > 1
          ? ` (and ${twice
              .slice(1)
              .map((t) => `/v0/${t.twice.list}`)
              .join(', ')} too)`
          : '';
      const text = `${listedTwiceText(twice[0]!.twice, twice[0]!.baseline)}${more}`;
      message = before?.text === text ? before : {tone: 'warning', text};
    }
    const pruned = pruneMarks(this.state.marks, next, SCREEN_SPECS);
    if (pruned.dropped && message === before) message = {tone: 'warning', text: `${pruned.dropped[0]!.toUpperCase()}${pruned.dropped.slice(1)}`};
    this.set((s) => ({...s, snapshot: next, clock: Date.now(), marks: pruned.marks}));
    // Through message(), so "Connection restored" fades like any other success.
    if (message !== before) this.message(message);
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

  /**
   * `--activity-log`: a batch is in the file whole or not at all; while writes fail, the status
   * line says how many events the log is missing, and the console goes on (screen 5 still lists them).
   */
  private logEvents(events: readonly ActivityEvent[]): void {
    if (!this.io.activityLog) return;
    const failure = this.io.activityLog.append(events);
    // Screen 5 keeps the last EventRing.capacity events: beyond that, not all of the missing ones.
    const listed = (n: number) => (n <= this.tracker.events.capacity ? 'screen 5 lists them' : `screen 5 lists the last ${this.tracker.events.capacity}`);
    if (failure) {
      this.logNotRecorded += events.length;
      this.message({tone: 'error', text: `${notRecordedText(failure, this.logNotRecorded)}; ${listed(this.logNotRecorded)}`});
    } else if (this.logNotRecorded > 0) {
      const missing = this.logNotRecorded;
      this.logNotRecorded = 0;
      this.message({
        tone: 'warning',
        text: `The activity log is written again; ${missing} earlier event${missing === 1 ? ' is' : 's are'} NOT in it (${listed(missing)})`,
      });
    }
  }
}
