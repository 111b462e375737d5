// `t` on Devices and Users: `:trace` from the item, the command bar opened with it filled in (the
// admin types the destination). One action and one help text for both screens.
import {openCommandBar} from '../commands/open.js';
import {withItem, type ItemAction} from './spec.js';

/** The help of `t`, on a list and in a detail. */
export const TRACE_HELP = {
  list: 'trace traffic from the row (opens :trace with it filled in; type DEST)',
  detail: 'trace traffic from them (opens :trace with them filled in; type DEST)',
} as const;

/** `t`: `:trace SOURCE ` in the command bar, SOURCE being what `source` says of the item. */
export function traceFrom<T>(source: (item: T) => string): ItemAction<T> {
  return withItem({verb: 'tracing', run: (ctx, item) => openCommandBar(ctx, `trace ${source(item)} `)});
}
