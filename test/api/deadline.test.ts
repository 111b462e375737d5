// A request's timeout counts the server's time, not the time the console's own event loop was
// blocked (src/api/deadline.ts; docs/architecture.md, "A timeout blames the server only for the
// server's time"): first the deadline on a clock the test moves, then the client against a
// sandbox in another process while this one's event loop is blocked.
import {spawn, type ChildProcess} from 'node:child_process';
import {createServer as createTcpServer, type AddressInfo, type Server as TcpServer} from 'node:net';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {LoopDeadline, type DeadlineClock, type Expiry} from '../../src/api/deadline.js';
import {FirezoneClient, type ApiError} from '../../src/api/index.js';
import {bundleModule} from '../helpers/bundle.js';

/** An event loop whose time the test moves: idle (timers run when due) or busy (they run late, after). */
class TestLoop implements DeadlineClock {
  time = 0;
  private timers: Array<{at: number; run: () => void}> = [];

  now(): number {
    return this.time;
  }
  setTimer(run: () => void, ms: number): unknown {
    const timer = {at: this.time + ms, run};
    this.timers.push(timer);
    return timer;
  }
  clearTimer(timer: unknown): void {
    this.timers = this.timers.filter((t) => t !== timer);
  }
  /** Free until `to`: each timer runs at its time. */
  idleUntil(to: number): void {
    for (let next = this.nextDue(to); next; next = this.nextDue(to)) {
      this.time = next.at;
      this.take(next).run();
    }
    this.time = to;
  }
  /** Blocked until `to`: the timers that fell due meanwhile run then, late. */
  busyUntil(to: number): void {
    this.time = to;
    for (let next = this.nextDue(to); next; next = this.nextDue(to)) this.take(next).run();
  }
  private nextDue(to: number) {
    return this.timers.filter((t) => t.at <= to).sort((a, b) => a.at - b.at)[0];
  }
  private take(timer: {at: number; run: () => void}) {
    this.clearTimer(timer);
    return timer;
  }
}

function deadline(timeoutMs: number, loop: TestLoop, startedAt = 0): {expired: () => Expiry | null} {
  let expiry: Expiry | null = null;
  new LoopDeadline(timeoutMs, (e) => (expiry = e), startedAt, loop);
  return {expired: () => expiry};
}

describe('LoopDeadline', () => {
  it('expires at the timeout when the loop is free', () => {
    const loop = new TestLoop();
    const d = deadline(1000, loop);
    loop.idleUntil(999);
    expect(d.expired()).toBeNull();
    loop.idleUntil(1000);
    expect(d.expired()).toEqual({wallMs: 1000, busyMs: 0});
  });

  it('counts the time since it was sent, when it starts later', () => {
    const loop = new TestLoop();
    loop.time = 400;
    const d = deadline(1000, loop, 0);
    loop.idleUntil(999);
    expect(d.expired()).toBeNull();
    loop.idleUntil(1000);
    expect(d.expired()).not.toBeNull();
  });

  it('does not count a block of the loop: after one it always waits one more tick', () => {
    const loop = new TestLoop();
    const d = deadline(1000, loop);
    // Ticks every 250 ms. Blocked from 900 to 5,000 across the deadline: the tick due at 1,000
    // was armed at 750, and the block may have begun any time after that.
    loop.idleUntil(900);
    loop.busyUntil(5000);
    expect(d.expired()).toBeNull();
    loop.idleUntil(5249);
    expect(d.expired()).toBeNull();
    loop.idleUntil(5250);
    expect(d.expired()).toEqual({wallMs: 5250, busyMs: 4250});
  });

  it('counts a tick late by less than a block as busy for its lateness only', () => {
    const loop = new TestLoop();
    const d = deadline(1000, loop);
    // every tick 40 ms late (less than a block): 4 ticks of 250 ms, each 40 ms late
    for (let tick = 1; !d.expired() && tick < 10; tick++) loop.busyUntil(tick * 290);
    expect(d.expired()).toEqual({wallMs: 1160, busyMs: 160});
  });

  it('ends however busy the loop: a block right after another is counted for its lateness only', () => {
    const loop = new TestLoop();
    const d = deadline(1000, loop);
    // Blocked 500 ms at every tick: the first block is not counted, then each tick's 250 ms is.
    let t = 0;
    while (!d.expired() && t < 100_000) loop.busyUntil((t += 750));
    expect(d.expired()).toEqual({wallMs: 3750, busyMs: 2750});
  });

  it('a tick late by exactly a block is a block: the whole tick is busy, and a late tick after it only its lateness', () => {
    const loop = new TestLoop();
    const d = deadline(1000, loop);
    // The first tick (armed at 0, due at 250) runs at 350: 100 ms late, a block: 350 ms busy.
    loop.busyUntil(350);
    // The next (armed at 350, due at 600) runs at 700, late by a block again, right after one: 100 ms.
    loop.busyUntil(700);
    // 1,000 ms of the server's time: wall 1,450 less 450 busy.
    loop.idleUntil(1449);
    expect(d.expired()).toBeNull();
    loop.idleUntil(1450);
    expect(d.expired()).toEqual({wallMs: 1450, busyMs: 450});
  });

  it('on the real clock, a cancelled deadline never fires', async () => {
    let expired = false;
    new LoopDeadline(20, () => (expired = true)).cancel();
    // The one negative wait: five times the timeout, on an idle loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(expired).toBe(false);
  });

  it('does nothing once cancelled', () => {
    const loop = new TestLoop();
    let expired = false;
    new LoopDeadline(1000, () => (expired = true), 0, loop).cancel();
    loop.idleUntil(10_000);
    expect(expired).toBe(false);
  });
});

/** Blocks this process's event loop for `ms` (a costly filter, a huge paste measured). */
function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('the client while its event loop is blocked', () => {
  let dir: string;
  let child: ChildProcess;
  let sandbox: {url: string; adminToken: string};

  beforeAll(async () => {
    // The sandbox runs in a process of its own, so that it answers while this one is blocked.
    dir = mkdtempSync(join(tmpdir(), 'fzc-deadline-'));
    await bundleModule('sandbox/index.ts', dir, 'sandbox');
    writeFileSync(
      join(dir, 'serve.mjs'),
      `const {startSandbox} = await import(${JSON.stringify(pathToFileURL(join(dir, 'sandbox.mjs')).href)});
const sb = await startSandbox({port: 0, seed: 'demo', devices: 20, statsIntervalSeconds: 0});
process.stdout.write(JSON.stringify({url: sb.url, adminToken: sb.adminToken}) + '\\n');
process.stdin.on('end', () => sb.close().then(() => process.exit(0)));
process.stdin.resume();`,
    );
    child = spawn(process.execPath, [join(dir, 'serve.mjs')], {stdio: ['pipe', 'pipe', 'inherit']});
    sandbox = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out) as typeof sandbox);
      });
      child.once('exit', () => reject(new Error('the sandbox exited')));
    });
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin!.end();
    });
    rmSync(dir, {recursive: true, force: true});
  });

  it('takes an answer that came while it was blocked past the timeout, on its own socket and over undici', async () => {
    const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, timeoutMs: 300});
    try {
      // A kept-alive connection: the next GET is written at once, and answered while this process is blocked.
      await client.getConfiguration();
      const get = client.getConfiguration();
      blockFor(1000);
      expect((await get).data.id).toMatch(/^[0-9a-f-]{36}$/);
      const devices = client.listDevices();
      blockFor(1000);
      expect((await devices).data).toHaveLength(20);
      // A write over undici: sent once the loop turns, after the block.
      const created = client.createRule({destination: '10.99.0.0/16', action: 'drop'});
      blockFor(1000);
      expect((await created).data.destination).toBe('10.99.0.0/16');
    } finally {
      await client.close();
    }
  });

  it("still times out on a server that does not answer, and says when the console's own time was left out", async () => {
    // A server that takes the connection and never answers.
    const hung = await new Promise<TcpServer>((resolve) => {
      const server = createTcpServer(() => undefined);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
    const {port} = hung.address() as AddressInfo;
    const client = new FirezoneClient({baseUrl: `http://127.0.0.1:${port}`, token: 't', timeoutMs: 300});
    try {
      const pending = client.getConfiguration().then(
        () => null,
        (e: unknown) => e,
      );
      blockFor(1000);
      const err = (await pending) as ApiError;
      expect(err.kind).toBe('timeout');
      expect(err.message).toMatch(
        /^Request timed out after 0\.3 s: GET \/v0\/configuration \(server slow or unreachable; not counting [01](\.\d)? s the console itself was busy\)$/,
      );
    } finally {
      await client.close();
      hung.close();
    }
  });
});
