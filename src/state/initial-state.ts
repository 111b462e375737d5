// The console's state before anything happened: the device list shown, every list at its default
// sort, no modal, the first poll loading. Beside the composition root (controller.ts), which
// starts its store with it.
import type {ConsoleSettings} from './core/context.js';
import {CLOSED_HELP, type ConsoleState, type ListScreenId} from './core/state.js';
import type {PollStatus} from './data/poller.js';
import {initialMarks} from './lists/marks.js';
import {initialListState, type ListUiState} from './lists/view-state.js';
import {SCREEN_SPECS} from './screens/index.js';

export function initialState(settings: ConsoleSettings): ConsoleState {
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
