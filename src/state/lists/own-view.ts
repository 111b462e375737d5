// A list's own view (`ownView` in its spec, src/state/screens/display.ts): the Devices list's stale
// devices on `S`. On, the list shows the view's items in their own order, unfiltered; off, all its
// items again, with the sort it had before.
import type {ConsoleContext} from '../core/context.js';
import type {ListScreenId} from '../core/state.js';
import type {ListUiState} from './view-state.js';

/** The list state with its own view on or off; the filter is cleared either way (it was typed for the other rows). */
export function withOwnView(st: ListUiState, on: boolean): ListUiState {
  return {...st, ownView: on, sortBeforeOwnView: on ? st.sort : null, sort: on ? null : st.sortBeforeOwnView, filter: '', filtering: false};
}

/** The own view on, or off again, said in the status line. */
export function toggleOwnView(c: ConsoleContext, screen: ListScreenId): void {
  const view = c.list(screen)?.spec.ownView;
  if (!view) return;
  const on = !c.state.lists[screen].ownView;
  c.updateList(screen, (st) => withOwnView(st, on));
  c.message({tone: 'info', text: on ? view.entered(c.settings) : view.left});
}

/** All the list's items again, if its own view is on (`:devices NAME` may name a device it does not show). */
export function leaveOwnView(c: ConsoleContext, screen: ListScreenId): void {
  if (c.state.lists[screen].ownView) toggleOwnView(c, screen);
}
