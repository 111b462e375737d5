// `K`: a new key for the device under the cursor (issue #47). One question first (the one dialog:
// which device, that its client config stops working, what is kept); then the device is replaced
// by one with a new key pair and preshared key made here (replace-device.ts), and the new client
// config is shown once as a new device's is (file 0600, QR, copy: interactions/device-result.ts).
// `u` brings the old key back. On marked devices: new-key-bulk.ts.
import {openNewConfig} from '../../interactions/device-result.js';
import type {ConsoleContext} from '../../core/context.js';
import type {DialogLine} from '../../core/modals.js';
import {errorText} from '../../core/state.js';
import type {DeviceRow} from '../../data/snapshot.js';
import {replaceDevice, type ReplaceOutcome, type RestoreContext} from './replace-device.js';

/** Why `K` cannot run with this token: null when it can. */
export function newKeyRefusal(ctx: ConsoleContext): string | null {
  // 0.7.36 lets only admins create devices; a non-admin token could delete the device and then not
  // create it again, with nothing to bring it back.
  return ctx.snapshot.hidden.has('users')
    ? "Cannot make a new key: this token's user is not an admin, and 0.7.36 lets only admins create devices (the device would be deleted and not created again)"
    : null;
}

export function restoreContext(ctx: ConsoleContext): RestoreContext {
  return {restoredUsers: ctx.undo.restoredUsers, emailOf: (id) => ctx.state.snapshot?.usersById.get(id)?.email ?? null};
}

/** "10.3.2.5 and fd00::3:2:5", or what the device has. */
export function addressWords(ipv4: string | null, ipv6: string | null): string {
  const both = [ipv4, ipv6].filter((a): a is string => Boolean(a));
  return both.length === 0 ? 'none' : both.join(' and ');
}

/** The question's first line, for one device or many: what stops working. */
export function stopsWorking(one: boolean): DialogLine {
  return {
    text: one
      ? 'Its current client config stops working: the device gets a new key pair and preshared key, made here, and needs the new config.'
      : 'Their current client configs stop working: each device gets a new key pair and preshared key, made here, and needs its new config.',
    tone: 'warning',
    bold: true,
  };
}

/** What replacing a device changes besides its key (docs/firezone-0.7.36.md, "Devices: what an update applies"). */
export const REPLACED: DialogLine = {
  text: 'Firezone 0.7.36 cannot change a key in place: the device is deleted and created again with the new key, so it gets a new id and creation date, and its handshake and traffic counters start from nothing.',
  tone: 'muted',
};

export function askNewKey(ctx: ConsoleContext, row: DeviceRow): void {
  const label = `${row.name} of ${row.ownerEmail}`;
  ctx.openDialog({
    title: `New key for device ${label}?`,
    lines: [
      stopsWorking(true),
      {text: `Kept: its name, description, owner, addresses (${addressWords(row.ipv4, row.ipv6)}) and settings.`},
      REPLACED,
      {text: 'u brings the old key back.', tone: 'muted'},
    ],
    choices: [
      {
        action: 'confirm',
        label: 'new key',
        run: async () => {
          let outcome: ReplaceOutcome;
          try {
            outcome = await replaceDevice(ctx.client, row.id, restoreContext(ctx));
          } catch (err) {
            return () => ctx.message({tone: 'error', text: `No new key for ${label}: ${errorText(err)} (nothing changed)`});
          }
          return () => settle(ctx, row, outcome);
        },
      },
      {action: 'cancel', label: 'keep the key'},
    ],
  });
}

/** What the replace came to, said: the new config, or a report of what happened instead. */
function settle(ctx: ConsoleContext, row: DeviceRow, outcome: ReplaceOutcome): void {
  const ownerEmail = outcome.kind === 'unchanged' ? row.ownerEmail : (ctx.snapshot.usersById.get(outcome.before.user_id)?.email ?? row.ownerEmail);
  const label = `${outcome.kind === 'unchanged' ? row.name : outcome.before.name} of ${ownerEmail}`;
  // The old device is gone whatever happened next: a detail open on it follows the new one, or closes.
  const detailOnOld = ctx.state.lists.devices.detailId === row.id;
  switch (outcome.kind) {
    case 'replaced': {
      const {device} = outcome;
      ctx.afterWrite(`New key for device ${label}: its old client config no longer works (u brings the old key back)`, {screen: 'devices', id: device.id});
      // After afterWrite, which notes every write: this one is what `u` takes back.
      ctx.undo.add(`new key of device ${device.name} (${ownerEmail})`, {users: [], devices: [], rules: [], newKeys: [outcome.change]}, Date.now());
      if (detailOnOld) ctx.updateList('devices', (st) => ({...st, detailId: device.id}));
      const refused = openNewConfig(ctx, device, outcome.privateKey, ownerEmail, true);
      if (refused)
        ctx.message({
          tone: 'error',
          text: `Device ${device.name} has its new key, but its client config was refused: the server sent a value that is not of its kind`,
        });
      return;
    }
    case 'unchanged':
      ctx.message({tone: 'warning', text: `No new key for ${label}: ${outcome.reason}; nothing changed`});
      ctx.refresh();
      return;
    case 'restored': {
      if (detailOnOld) ctx.leaveDetail('devices');
      const text = `No new key for ${label}: ${outcome.reason}. It is back as it was, with its old key: its client config works again.`;
      ctx.push({
        kind: 'report',
        title: `No new key for ${label}`,
        phase: 'finished',
        progress: null,
        scroll: 0,
        lines: [{text, tone: 'warning'}, {text: ''}, ...outcome.lines],
      });
      // Bringing it back was a write `u` cannot take back: a later `u` says so before an older delete.
      ctx.undo.noteWrite(`the device ${label} brought back after its new key failed`);
      ctx.message({tone: 'warning', text});
      ctx.refresh();
      return;
    }
    case 'undoable': {
      if (detailOnOld) ctx.leaveDetail('devices');
      const text = `No new key for ${label}: ${outcome.reason}. The device is not back yet: u tries again to bring it back as it was.`;
      ctx.push({
        kind: 'report',
        title: `No new key for ${label}`,
        phase: 'finished',
        progress: null,
        scroll: 0,
        lines: [{text, tone: 'danger'}, ...(outcome.lines.length ? [{text: ''}, ...outcome.lines] : [])],
      });
      ctx.undo.add(`device ${label} (its new key failed)`, outcome.keep, Date.now());
      ctx.message({tone: 'error', text});
      ctx.refresh();
      return;
    }
  }
}
