// The events of the Activity screen and the --activity-log file: what changed between two polls,
// or what this console did (src/state/tracking/tracker.ts).

// ---- events ----------------------------------------------------------------------------------

export type ObjectType = 'device' | 'user' | 'rule' | 'configuration';

export type ActivityKind =
  | 'device.created'
  | 'device.deleted'
  | 'device.online'
  | 'device.idle'
  | 'device.roamed'
  | 'device.renamed'
  | 'device.updated'
  | 'device.rekeyed'
  | 'user.created'
  | 'user.deleted'
  | 'user.role'
  | 'user.email'
  | 'user.disabled'
  | 'user.enabled'
  | 'user.signed_in'
  | 'rule.added'
  | 'rule.removed'
  | 'rule.changed'
  | 'configuration.changed';

export interface ActivityObject {
  readonly type: ObjectType;
  readonly id: string;
  /** Device name, user email, rule summary or "Configuration": raw server text, made display-safe by the UI. */
  readonly label: string;
}

export interface ActivityEvent {
  /** Increases with every event of the process: a stable key for lists. */
  readonly seq: number;
  readonly kind: ActivityKind;
  /** When the change was seen: the time of the poll that showed it (not when it happened). */
  readonly at: number;
  readonly object: ActivityObject;
  /** The owner's email for devices and per-user rules. */
  readonly owner: string | null;
  /** One line, self-contained (the log file has no other context). */
  readonly text: string;
  /** `field: old → new` lines; secrets never appear here. */
  readonly detail: readonly string[];
  /** 'you' when this console made the change (noteLocalWrite), else null (another client, the server). */
  readonly by: 'you' | null;
}
