// A key, a paste, a read of the terminal and a poll are each one change of the store: its
// subscribers (React's render, the poller's hold, the sort ahead) hear of it once, however many
// parts of the state the handler changed (docs/architecture.md, "From a key press to a new frame").
import {describe, expect, it} from 'vitest';
import {Store} from '../../src/state/core/store.js';
import {InputDecoder} from '../../src/state/input/decoder.js';
import {open, seeded, until} from '../helpers/fake-console.js';

describe('Store.batch', () => {
  it('applies each update at once, and tells the subscribers once at the end, if anything changed', () => {
    const store = new Store({a: 0, b: 0});
    let told = 0;
    store.subscribe(() => told++);
    store.batch(() => {
      store.update((s) => ({...s, a: 1}));
      expect(store.get().a).toBe(1);
      store.batch(() => store.update((s) => ({...s, b: 2})));
      expect(told).toBe(0);
    });
    expect(told).toBe(1);
    expect(store.get()).toEqual({a: 1, b: 2});
    store.batch(() => store.update((s) => s));
    expect(told).toBe(1);
    store.update((s) => ({...s, a: 3}));
    expect(told).toBe(2);
  });

  it('tells the subscribers even when the work throws', () => {
    const store = new Store({a: 0});
    let told = 0;
    store.subscribe(() => told++);
    expect(() =>
      store.batch(() => {
        store.update(() => ({a: 1}));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(told).toBe(1);
  });
});

describe('one change of the store', () => {
  it('for a key that opens a question, and for the read that answers it and refreshes', async () => {
    const server = seeded();
    const {c} = await open(server);
    let told = 0;
    c.store.subscribe(() => told++);
    const decoder = new InputDecoder();
    c.read(decoder.feed('d'), 1);
    expect(told).toBe(1);
    told = 0;
    // Counted up to the change that closes the dialog (the refresh it starts has changes of its own).
    let toClose: number | null = null;
    c.store.subscribe(() => {
      if (toClose === null && c.state.modals.length === 0) toClose = told;
    });
    c.read(decoder.feed('y'), 2);
    await until(() => toClose !== null, 'the delete answered');
    expect(server.calls).toEqual(['deleteDevice d-1']);
    // The dialog busy; then the answer: the dialog closed, the detail left, the message, the undo
    // record and the refresh's start, as one change.
    expect(toClose).toBe(2);
  });

  it('for a poll: its snapshot, its status and its message together', async () => {
    const {c} = await open(seeded());
    const before = c.state.snapshot;
    let told = 0;
    const seen: unknown[] = [];
    c.store.subscribe(() => {
      told++;
      seen.push(c.state.snapshot);
    });
    c.refresh();
    await until(() => c.state.snapshot !== before && !c.state.poll.inFlight, 'the poll shown');
    // One change when the poll started (in flight), one when it ended: the new snapshot and its
    // status were never seen apart.
    expect(told).toBe(2);
    expect(seen[1]).not.toBe(before);
  });
});
