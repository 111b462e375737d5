// `S` on Devices: the stale view (src/state/data/stale.ts says which devices are stale).
import type {ConsoleContext} from '../../core/context.js';
import {DEFAULT_STALE_DAYS} from '../../data/stale.js';

/** `S` on Devices: only stale devices, oldest first; again: all devices with the sort as it was. */
export function toggleStaleView(ctx: ConsoleContext): void {
  const entering = !ctx.state.staleView;
  const days = ctx.settings.staleDays ?? DEFAULT_STALE_DAYS;
  ctx.set((s) => ({
    ...s,
    staleView: entering,
    sortBeforeStale: entering ? s.lists.devices.sort : null,
    lists: {...s.lists, devices: {...s.lists.devices, sort: entering ? null : s.sortBeforeStale, filter: '', filtering: false}},
  }));
  ctx.message({
    tone: 'info',
    text: entering
      ? `Stale devices: no handshake for ${days} days (--stale-days), or never connected and created before that; oldest first; S shows all`
      : 'All devices',
  });
}
