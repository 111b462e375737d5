// A device replaced by one with a new key (`K`, issue #47). Firezone 0.7.36 ignores `public_key`
// and `preshared_key` on update (docs/firezone-0.7.36.md, "Devices: what an update applies"), so
// a new key is a new device: the same user, name, description, addresses and settings, with a key
// pair and a preshared key made here. In 0.7.36 a device's addresses and its name (per user) are
// unique, so the old device is deleted first and the new one created with them after, in the
// order undo brings a device back (src/state/undo/restore.ts). If the create fails, the old device
// is created again as undo does (its old keys, addresses, settings); if even that fails, what `u`
// needs to try again is handed back.
import {ApiError, type Device} from '../../../api/index.js';
import {generateKeyPair, generatePresharedKey, type KeyPair} from '../../../wireguard/index.js';
import type {ConsoleClient} from '../../core/context.js';
import type {DialogLine} from '../../core/modals.js';
import {errorText} from '../../core/state.js';
import {outcomeUnknown} from '../../interactions/jobs.js';
import {deviceBody, reason, restore} from '../../undo/restore.js';
import {configProblem} from '../../interactions/config-check.js';
import {countOf, type KeyChange, type UndoItems} from '../../undo/undo-log.js';

export type ReplaceOutcome =
  /** The device has its new key: `device` is the new one; `change` is what `u` takes back. */
  | {kind: 'replaced'; before: Device; device: Device; privateKey: string; change: KeyChange}
  /** Nothing changed on the server (the device was gone already, or its delete was not applied). */
  | {kind: 'unchanged'; reason: string; error?: unknown}
  /** The new key was refused and the device is back as it was: `lines` say how (restore's words). */
  | {kind: 'restored'; before: Device; reason: string; lines: DialogLine[]; error: unknown}
  /** The device is not known to be on the server as it was: `keep` is what `u` can try again. */
  | {kind: 'undoable'; before: Device; reason: string; lines: DialogLine[]; keep: UndoItems; error: unknown};

/** The new key's material: made here, only the public and preshared keys are sent. */
export interface NewKeys {
  keys: KeyPair;
  presharedKey: string;
}

export function newKeys(): NewKeys {
  return {keys: generateKeyPair(), presharedKey: generatePresharedKey()};
}

/** Where `restore` finds the users a device may have moved to, and the label of an owner. */
export interface RestoreContext {
  restoredUsers: Map<string, string>;
  emailOf: (userId: string) => string | null;
}

const notFound = (err: unknown) => err instanceof ApiError && err.kind === 'not_found';

/**
 * Replaces device `id` with one holding `made`'s keys. Throws when nothing changed (the device
 * could not be read, or its delete was refused): the caller says the server's error. Every other
 * ending is an outcome, so that a device deleted here is never forgotten.
 */
export async function replaceDevice(client: ConsoleClient, id: string, at: RestoreContext, made: NewKeys = newKeys()): Promise<ReplaceOutcome> {
  // As the server has it now, not as the last poll showed it: a name or description changed since
  // is kept, not put back.
  let before: Device;
  try {
    before = (await client.getDevice(id)).data;
  } catch (err) {
    if (notFound(err)) return {kind: 'unchanged', reason: 'it is no longer on the server', error: err};
    throw err;
  }
  // The new device gets this one's settings (its own values, or the defaults it uses): a config
  // that cannot be built from them now could not be built after the delete either, and the user
  // would be left with none. Its keys are new, and the server's key is the server's to send.
  const problem = configProblem({...before, preshared_key: made.presharedKey, server_public_key: null});
  if (problem !== null) return {kind: 'unchanged', reason: `no client config could be built for it (${problem.why}): fix that first`};

  try {
    await client.deleteDevice(before.id);
  } catch (err) {
    if (notFound(err)) return {kind: 'unchanged', reason: 'it was deleted meanwhile', error: err};
    if (!outcomeUnknown(err)) throw err;
    // No answer: the delete may have been applied. Reading the device again tells.
    const still = await client.getDevice(before.id).then(
      () => true,
      (check: unknown) => (notFound(check) ? false : check),
    );
    if (still === true) return {kind: 'unchanged', reason: `no answer came to its delete (${errorText(err)}), and it is still there`, error: err};
    if (still !== false)
      return {
        kind: 'undoable',
        before,
        reason: `no answer came to its delete (${errorText(err)}), and reading it again failed too (${errorText(still)}): it may have been deleted`,
        lines: [],
        keep: {users: [], devices: [before], rules: []},
        error: err,
      };
  }

  // Every setting as the old device had it (defaults stay defaults), its addresses, and the new keys.
  const body = {...deviceBody(before, before.user_id), public_key: made.keys.publicKey, preshared_key: made.presharedKey};
  let failure: unknown;
  try {
    const device = (await client.createDevice(body)).data;
    return replaced(before, device, made);
  } catch (err) {
    failure = err;
  }
  if (outcomeUnknown(failure)) {
    // No answer: the device with the new key may exist. Its key finds it.
    let found: Device | null;
    try {
      found = (await client.listDevices()).data.find((d) => d.public_key === made.keys.publicKey) ?? null;
    } catch (check) {
      return {
        kind: 'undoable',
        before,
        reason: `no answer came to the create of the device with the new key (${errorText(failure)}), and reading the devices again failed too (${errorText(check)}): it may exist, and nobody holds its private key`,
        lines: [],
        // `u` deletes the device with the new key if it exists, then brings this one back.
        keep: {users: [], devices: [], rules: [], newKeys: [{before, replacementId: null, replacementKey: made.keys.publicKey}]},
        error: failure,
      };
    }
    if (found) return replaced(before, found, made);
  }
  // The new key was refused (or never arrived): the device as it was, with its old keys.
  const why = `the server refused the device with the new key (${reason(failure)})`;
  const back = await restore(client, {users: [], devices: [before], rules: []}, at.restoredUsers, at.emailOf);
  if (countOf(back.left) === 0) return {kind: 'restored', before, reason: why, lines: back.lines, error: failure};
  return {kind: 'undoable', before, reason: why, lines: back.lines, keep: back.left, error: failure};
}

function replaced(before: Device, device: Device, made: NewKeys): ReplaceOutcome {
  return {
    kind: 'replaced',
    before,
    device,
    privateKey: made.keys.privateKey,
    change: {before, replacementId: device.id, replacementKey: device.public_key},
  };
}
