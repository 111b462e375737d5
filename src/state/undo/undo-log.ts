// What `u` and `:undo` can take back (issue #29): the objects each delete of this session removed,
// as the server had them, in memory only (preshared keys included: they never reach the screen,
// a log or a file); and each new key given (`K`, issue #47): the device as it was before. Deletes in Firezone 0.7 are final; the API makes a faithful undo possible: a
// device can be created again with the same keys, addresses and settings, so its client config
// keeps working; a rule exactly; a user with the same email and role (not the password, whose
// hash never leaves the server).
import type {Device, Rule, User} from '../../api/index.js';

/**
 * A device given a new key (`K`): 0.7.36 cannot change a key in place, so the device was replaced by
 * one with the new key. Taking it back deletes that one and creates the device as it was, with
 * its old keys, addresses and settings.
 */
export interface KeyChange {
  /** The device as the server had it before. */
  readonly before: Device;
  /** The device that replaced it; null when no answer came to its create (it is found by its key). */
  readonly replacementId: string | null;
  readonly replacementKey: string;
}

/** What one delete removed: a user takes their devices and rules with them (0.7.36 deletes them too). */
export interface UndoItems {
  users: readonly User[];
  devices: readonly Device[];
  rules: readonly Rule[];
  /** New keys given to devices (`K`), taken back before the devices are brought back. */
  newKeys?: readonly KeyChange[];
}

export interface UndoEntry {
  /** 1 for the session's first delete, counting up: `:undo N` names one. */
  readonly number: number;
  readonly at: number;
  /** "device laptop (ann@example.com)", "3 devices", "new key of device laptop (ann@example.com)". */
  readonly label: string;
  /** What is still to restore: a partial restore leaves the rest here. */
  items: UndoItems;
  /** What could not come back and why, said before (in `:undo`) and after. */
  readonly caveats: readonly string[];
  restored: boolean;
}

/** How many deletes are remembered; older ones drop (a bulk delete of 1,000 devices is one). */
export const UNDO_DEPTH = 50;

export function countOf(items: UndoItems): number {
  return items.users.length + items.devices.length + items.rules.length + (items.newKeys?.length ?? 0);
}

export function merge(all: readonly UndoItems[]): UndoItems {
  const newKeys = all.flatMap((i) => i.newKeys ?? []);
  return {
    users: all.flatMap((i) => i.users),
    devices: all.flatMap((i) => i.devices),
    rules: all.flatMap((i) => i.rules),
    ...(newKeys.length > 0 ? {newKeys} : {}),
  };
}

export class UndoLog {
  private entries: UndoEntry[] = [];
  private next = 1;
  /** Old user id → the id of the user as restored: a later restore of their devices or rules goes to them. */
  readonly restoredUsers = new Map<string, string>();
  /** The console's latest write when it is not a delete kept here (nor a restore): `u` cannot take it back. */
  private later: string | null = null;

  /**
   * A write of this console succeeded, by its status text; null for a restore made by undo itself
   * (`u` again goes on down the list). A delete kept here is noted by `add`, after this.
   */
  noteWrite(text: string | null): void {
    this.later = text;
  }

  /** A write made after the newest delete that `u` would take back, which `u` cannot take back itself. */
  laterWrite(): string | null {
    return this.later;
  }

  /** Remembers a delete that succeeded; nothing when it removed nothing. */
  add(label: string, items: UndoItems, at: number): UndoEntry | null {
    if (countOf(items) === 0) return null;
    const caveats =
      items.users.length > 0
        ? [
            `${items.users.length === 1 ? 'the password' : 'the passwords'} (the hash never leaves the server): a user who signed in with one sets it again; sign-ins by an identity provider are unaffected`,
          ]
        : [];
    const entry: UndoEntry = {number: this.next++, at, label, items, caveats, restored: false};
    this.later = null;
    this.entries.push(entry);
    if (this.entries.length > UNDO_DEPTH) this.entries.shift();
    return entry;
  }

  /** The latest delete not yet taken back. */
  last(): UndoEntry | null {
    for (let i = this.entries.length - 1; i >= 0; i--) if (!this.entries[i]!.restored) return this.entries[i]!;
    return null;
  }

  get(number: number): UndoEntry | null {
    return this.entries.find((e) => e.number === number) ?? null;
  }

  /** Newest first. */
  list(): readonly UndoEntry[] {
    return [...this.entries].reverse();
  }
}
