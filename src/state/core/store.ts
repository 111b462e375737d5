// A synchronous store outside React. Several keys can arrive in one input event; each must see
// what the previous one did, so key handling reads and writes this store directly, never a value
// captured by a render (docs/architecture.md, "From a key press to a new frame").

/**
 * A synchronous store: `update` applies at once and notifies subscribers (React re-renders). Inside
 * `batch`, updates still apply at once (each key sees the last), but subscribers hear of them once,
 * when the batch ends: a key, a paste or a poll is one change of the store, one render. A reaction
 * (`react`) runs after a change and before the subscribers hear of it, and what it changes is part
 * of the same change (the poller held while a modal is open: the header says "on hold" in the
 * frame that opens the modal, not in a second one).
 */
export class Store<S> {
  private state: S;
  private readonly listeners = new Set<() => void>();
  private readonly reactions: Array<() => void> = [];
  private depth = 0;
  private changed = false;

  constructor(initial: S) {
    this.state = initial;
  }

  readonly get = (): S => this.state;

  update(change: (state: S) => S): void {
    this.batch(() => {
      const next = change(this.state);
      if (next === this.state) return;
      this.state = next;
      this.changed = true;
    });
  }

  /** Runs `work` with the subscribers told once, at its end, if anything changed. */
  readonly batch = <T>(work: () => T): T => {
    this.depth++;
    try {
      return work();
    } finally {
      if (this.depth === 1 && this.changed) for (const reaction of this.reactions) reaction();
      if (--this.depth === 0 && this.changed) {
        this.changed = false;
        for (const listener of this.listeners) listener();
      }
    }
  };

  /** `reaction` runs after every change, inside it: its own updates are part of that change. */
  react(reaction: () => void): () => void {
    this.reactions.push(reaction);
    return () => {
      const i = this.reactions.indexOf(reaction);
      if (i >= 0) this.reactions.splice(i, 1);
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
