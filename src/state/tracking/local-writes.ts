// "By you": the writes this console sent, remembered for a while so the poll that shows their
// effect reports it as this console's doing.
import type {Configuration} from '../../api/index.js';
import {parseTime} from '../data/format.js';
import type {ActivityKind, ObjectType} from './events.js';

// ---- "by you" ----------------------------------------------------------------------------------

export type LocalAction = 'created' | 'deleted' | 'updated';

export interface LocalWrite {
  type: ObjectType;
  /** The object's id; for the configuration any value (there is one). */
  id: string;
  action: LocalAction;
}

const LOCAL_KINDS: Record<ObjectType, Record<LocalAction, readonly ActivityKind[]>> = {
  device: {created: ['device.created'], deleted: ['device.deleted'], updated: ['device.renamed', 'device.updated']},
  user: {created: ['user.created'], deleted: ['user.deleted'], updated: ['user.role', 'user.email', 'user.disabled', 'user.enabled']},
  rule: {created: ['rule.added'], deleted: ['rule.removed'], updated: ['rule.changed']},
  configuration: {created: [], deleted: [], updated: ['configuration.changed']},
};

/** A write this console made is matched by the next poll that shows it; one the poll never shows (undone meanwhile) is forgotten after this. */
export const LOCAL_WRITE_TTL_MS = 120_000;

/**
 * A configuration save of this console: the record it was built on (read just before it was sent)
 * and the record the server answered with. Between the two lies exactly this console's change;
 * anything before `base` or after `saved` is someone else's, even when one poll shows them all.
 */
export interface ConfigurationSave {
  base: Configuration;
  saved: Configuration;
}

/** Writes this console made and the polls have not shown yet. */
export class LocalWrites {
  private readonly pending = new Map<string, {kinds: Set<ActivityKind>; at: number}>();
  private saves: Array<ConfigurationSave & {at: number}> = [];

  /** A configuration save that succeeded, with the record it was built on. */
  noteConfigurationSave(save: ConfigurationSave, now: number): void {
    this.saves.push({...save, at: now});
  }

  /**
   * This console's saves against a poll going from `prev` to `next`, by the records' times (each
   * save's record is older than the next write's): how many `prev` already showed (a poll that
   * overtook the save's answer reported them by the note made before sending), which `next`
   * includes, and how many it does not yet; null when that cannot be told (no save known, or a
   * time that cannot be read).
   */
  configurationSaves(prev: Configuration, next: Configuration): {shown: number; included: readonly ConfigurationSave[]; waiting: number} | null {
    const prevAt = parseTime(prev.updated_at);
    const nextAt = parseTime(next.updated_at);
    if (this.saves.length === 0 || prevAt === null || nextAt === null) return null;
    let shown = 0;
    const included: ConfigurationSave[] = [];
    for (const save of this.saves) {
      const at = parseTime(save.saved.updated_at);
      if (at === null) return null;
      if (at <= prevAt) shown++;
      else if (at <= nextAt) included.push(save);
    }
    return {shown, included, waiting: this.saves.length - shown - included.length};
  }

  /** The first `count` saves were reported. */
  reportedConfigurationSaves(count: number): void {
    this.saves = this.saves.slice(count);
  }

  note(write: LocalWrite, now: number): void {
    const key = write.type === 'configuration' ? 'configuration' : `${write.type}:${write.id}`;
    const entry = this.pending.get(key) ?? {kinds: new Set<ActivityKind>(), at: now};
    for (const kind of LOCAL_KINDS[write.type][write.action]) entry.kinds.add(kind);
    entry.at = now;
    this.pending.set(key, entry);
  }

  /** A write that failed after it was noted (noted before sending, so a poll racing the response cannot miss it). */
  forget(write: LocalWrite): void {
    const key = write.type === 'configuration' ? 'configuration' : `${write.type}:${write.id}`;
    const entry = this.pending.get(key);
    if (!entry) return;
    for (const kind of LOCAL_KINDS[write.type][write.action]) entry.kinds.delete(kind);
    if (entry.kinds.size === 0) this.pending.delete(key);
  }

  /** Whether the event is one of ours; the write stays pending until `settle`, so one edit that shows as two events (role and email) attributes both. */
  matches(type: ObjectType, id: string, kind: ActivityKind): boolean {
    const entry = this.pending.get(type === 'configuration' ? 'configuration' : `${type}:${id}`);
    return entry !== undefined && entry.kinds.has(kind);
  }

  /** After a diff: drops the writes it attributed, and writes older than the TTL. */
  settle(matched: ReadonlySet<string>, now: number): void {
    for (const key of matched) this.pending.delete(key);
    this.saves = this.saves.filter((save) => now - save.at <= LOCAL_WRITE_TTL_MS);
    for (const [key, entry] of this.pending) if (now - entry.at > LOCAL_WRITE_TTL_MS) this.pending.delete(key);
  }

  get size(): number {
    return this.pending.size;
  }
}
