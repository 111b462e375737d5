// A synchronous store outside React. Several keys can arrive in one input event; each must see
// what the previous one did, so key handling reads and writes this store directly, never a value
// captured by a render (docs/architecture.md, "From a key press to a new frame").

/** A synchronous store: `update` applies at once and notifies subscribers (React re-renders). */
export class Store<S> {
  private state: S;
  private readonly listeners = new Set<() => void>();

  constructor(initial: S) {
    this.state = initial;
  }

  readonly get = (): S => this.state;

  update(change: (state: S) => S): void {
    const next = change(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
