// The bounded buffer of the session's events, newest first, searchable.
import type {ActivityEvent, ActivityKind, ObjectType} from './events.js';

// ---- the event buffer ------------------------------------------------------------------------

export const EVENT_CAPACITY = 10_000;

export interface EventFilter {
  /** Case-insensitive substring of the text, the object label or the owner. */
  text?: string;
  types?: readonly ObjectType[];
  kinds?: readonly ActivityKind[];
  /** Only what this console did. */
  byYou?: boolean;
}

/** Lowercased once per event, as the list search does for rows (src/state/lists/search.ts): a filter keystroke over 10,000 events builds no strings. */
const haystacks = new WeakMap<ActivityEvent, string>();

function haystack(e: ActivityEvent): string {
  let h = haystacks.get(e);
  if (h === undefined) {
    // A NUL between the parts so a needle never matches across two.
    h = `${e.text}\u0000${e.object.label}\u0000${e.owner ?? ''}`.toLowerCase();
    haystacks.set(e, h);
  }
  return h;
}

/** The last `capacity` events, oldest overwritten first. */
export class EventRing {
  private readonly items: (ActivityEvent | undefined)[];
  private head = 0;
  private count = 0;
  /** Changes on every push: a cache key for the Activity screen. */
  version = 0;

  constructor(readonly capacity: number = EVENT_CAPACITY) {
    this.items = new Array<ActivityEvent | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(events: readonly ActivityEvent[]): void {
    if (events.length === 0) return;
    for (const e of events) {
      this.items[this.head] = e;
      this.head = (this.head + 1) % this.capacity;
      if (this.count < this.capacity) this.count++;
    }
    this.version++;
  }

  /** Newest first, filtered. */
  list(filter: EventFilter = {}): ActivityEvent[] {
    const needle = filter.text?.toLowerCase() ?? '';
    const out: ActivityEvent[] = [];
    for (let k = 1; k <= this.count; k++) {
      const e = this.items[(this.head - k + this.capacity) % this.capacity]!;
      if (filter.byYou && e.by !== 'you') continue;
      if (filter.types && !filter.types.includes(e.object.type)) continue;
      if (filter.kinds && !filter.kinds.includes(e.kind)) continue;
      if (needle && !haystack(e).includes(needle)) continue;
      out.push(e);
    }
    return out;
  }
}
