// What one terminal read may do (#44, "Keys"): the bytes go through the real decoder and router
// (src/state/input/decoder.ts, src/ui/keys.ts), as the console reads them.
//  - a read of several key presses never answers a question (`hello yes` without bracketed paste);
//  - a key that does nothing where it lands stops the rest of its read (`/owner:dana` in a detail
//    once opened Edit with its `e` and typed the rest into the Name field);
//  - Esc and a key arriving together, read as Alt+key, are Esc then the key where nothing binds it.
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {InputDecoder} from '../../src/state/input/decoder.js';
import {InputRouter} from '../../src/ui/keys.js';
import {open, seeded, until} from '../helpers/fake-console.js';

/** A console whose reads go through the decoder and router, numbered as the terminal's are. */
async function terminal() {
  const server = seeded();
  const opened = await open(server);
  const decoder = new InputDecoder();
  const router = new InputRouter(opened.c);
  let reads = 0;
  /** One read of the terminal, holding exactly these bytes. */
  const read = (bytes: string) => router.handle(decoder.feed(bytes), ++reads);
  return {...opened, server, read};
}

describe('one read, one key press', () => {
  it('a delete question is not answered by a read of several keys (an unbracketed paste of "hello yes")', async () => {
    const {c, server, read, message} = await terminal();
    read('d');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
    read('hello yes');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
    expect(server.calls).toEqual([]);
    expect(message()).toContain('not run');
    // `y` alone, in a read of its own, answers.
    read('y');
    await until(() => server.calls.length > 0, 'the delete');
    expect(server.calls).toEqual(['deleteDevice d-1']);
  });

  it('nor by a key that came with a sequence (a colour code and a y in one read)', async () => {
    const {c, server, read, message} = await terminal();
    read('d');
    read('\x1b[31my');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
    expect(message()).toBe('Not done: that key came with other keys in one read (pasted, or typed ahead over a slow link); press it again, alone, to answer');
    read('\x1b[31m y');
    expect(server.calls).toEqual([]);
    read('n');
    expect(topModal(c.state)).toBeNull();
    expect(server.calls).toEqual([]);
  });

  it('a key that does nothing in a detail stops the rest of its read: "/owner:dana" opens no form', async () => {
    const {c, read, message} = await terminal();
    read('\r');
    expect(c.state.lists.devices.detailId).toBe('d-1');
    read('/owner:dana');
    expect(topModal(c.state)).toBeNull();
    expect(c.state.lists.devices.detailId).toBe('d-1');
    expect(message()).toBe('/ does nothing here (filter is on the list; Esc goes back to it); the 10 keys that came after it in the same read were not run');
    // Keys typed one at a time still act: `e` alone opens the form.
    read('e');
    expect(topModal(c.state)).toMatchObject({kind: 'form'});
  });

  it('keys that act still run many to a read (jj moves two rows, as a held key repeats)', async () => {
    const {c, read} = await terminal();
    read('jj');
    expect(c.state.lists.devices.selectedId).toBe('d-3');
  });

  it('Esc and q in one read leave the detail and quit; Esc and 3 go to Rules', async () => {
    const {c, io, read} = await terminal();
    read('\r');
    read('\x1b3');
    expect(c.state.lists.devices.detailId).toBeNull();
    expect(c.state.screen).toBe('rules');
    read('1');
    read('\r');
    read('\x1bq');
    expect(c.state.lists.devices.detailId).toBeNull();
    expect(io.exited).toBe(true);
  });
});

describe('a write whose answer never came', () => {
  it('stays said when the read-back fails too: "Refresh failed" (the header says it) does not replace it', async () => {
    const {c, server, read, message} = await terminal();
    server.breakDelete.set('d-1', 'after');
    server.listsFail = true;
    read('d');
    read('y');
    await until(() => message().startsWith('No answer to the delete'), 'the delete without an answer');
    await until(() => c.state.poll.failures > 0 && !c.state.poll.inFlight, 'the read-back failed');
    expect(message()).toMatch(/^No answer to the delete: .*It may have been applied/);
  });
});
