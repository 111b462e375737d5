// Activity against the real sandbox: every event kind driven the way it happens in production — /v0
// writes from another client, stats and sign-ins through the /_sandbox control API — and seen by
// polling exactly as the Controller does (fetchAll → buildSnapshot → ActivityTracker.observe).
import {describe, expect, it} from 'vitest';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {type ActivityEvent, type ActivityKind} from '../../src/state/tracking/events.js';
import {fetchAll} from '../../src/state/data/fetch.js';
import {buildSnapshot, type Snapshot} from '../../src/state/data/snapshot.js';
import {useSandbox} from '../helpers/rig.js';
import {publicKey} from '../sandbox/helpers.js';

const sb = useSandbox({seed: 'empty', statsIntervalSeconds: 0});

/** A console's polling loop with a clock the test can move forward (the sandbox keeps real time). */
function console_() {
  const tracker = new ActivityTracker();
  let last: Snapshot | null = null;
  let skew = 0;
  return {
    tracker,
    advance(ms: number) {
      skew += ms;
    },
    now: () => Date.now() + skew,
    async poll(): Promise<ActivityEvent[]> {
      const data = await fetchAll(sb.client);
      const now = Date.now() + skew;
      last = buildSnapshot(data, last, now);
      return [...tracker.observe(last, now)];
    },
  };
}

const summary = (events: readonly ActivityEvent[]) => events.map((e) => `${e.kind}${e.by ? ':you' : ''}`);
const iso = (ms: number) => new Date(ms).toISOString();

async function ok<T>(res: Promise<{status: number; json: T}>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  return r.json;
}

describe('activity from the sandbox', () => {
  it('drives every event kind; the first poll has none', async () => {
    const c = console_();
    expect(await c.poll()).toEqual([]);

    const user = (await ok(sb.api('POST', '/v0/users', {user: {email: 'ann@example.com', role: 'unprivileged'}}), 201)).data;
    expect(summary(await c.poll())).toEqual(['user.created']);

    const dev = (await ok(sb.api('POST', '/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: 'laptop'}}), 201)).data;
    const created = await c.poll();
    expect(summary(created)).toEqual(['device.created']);
    expect(created[0]).toMatchObject({owner: 'ann@example.com', object: {type: 'device', id: dev.id, label: 'laptop'}});

    const stats = (body: Record<string, unknown>) => ok(sb.api('PUT', `/_sandbox/devices/${dev.id}/stats`, body));
    await stats({latest_handshake: iso(c.now() - 5000), remote_ip: '198.51.100.7', rx_bytes: 1000, tx_bytes: 500});
    const online = await c.poll();
    expect(summary(online)).toEqual(['device.online']);
    expect(online[0]!.text).toBe('laptop (ann@example.com) came online from 198.51.100.7');

    await stats({latest_handshake: iso(c.now() - 2000), remote_ip: '203.0.113.9', rx_bytes: 5000, tx_bytes: 900});
    const roamed = await c.poll();
    expect(summary(roamed)).toEqual(['device.roamed']);
    expect(roamed[0]!.detail).toEqual(['remote IP: 198.51.100.7 → 203.0.113.9']);

    // Nothing changes on the server; the handshake just gets old.
    c.advance(200_000);
    expect(summary(await c.poll())).toEqual(['device.idle']);
    c.advance(5000);
    expect(await c.poll()).toEqual([]);

    await ok(sb.api('PUT', `/v0/devices/${dev.id}`, {device: {name: 'work-laptop', description: 'ThinkPad'}}));
    expect(summary(await c.poll())).toEqual(['device.renamed', 'device.updated']);

    await ok(sb.api('PUT', `/v0/users/${user.id}`, {user: {role: 'admin'}}));
    expect(summary(await c.poll())).toEqual(['user.role']);

    await ok(sb.api('PUT', `/_sandbox/users/${user.id}`, {disabled_at: iso(Date.now())}));
    expect(summary(await c.poll())).toEqual(['user.disabled']);
    await ok(sb.api('PUT', `/_sandbox/users/${user.id}`, {disabled_at: null}));
    expect(summary(await c.poll())).toEqual(['user.enabled']);

    await ok(sb.api('PUT', `/_sandbox/users/${user.id}`, {last_signed_in_at: iso(Date.now()), last_signed_in_method: 'password'}));
    const signedIn = await c.poll();
    expect(summary(signedIn)).toEqual(['user.signed_in']);
    expect(signedIn[0]!.text).toBe('ann@example.com signed in (password)');

    const rule = (await ok(sb.api('POST', '/v0/rules', {rule: {action: 'drop', destination: '10.9.0.0/16', user_id: user.id}}), 201)).data;
    const added = await c.poll();
    expect(summary(added)).toEqual(['rule.added']);
    expect(added[0]!.text).toBe('Rule added: DROP 10.9.0.0/16 all ports for ann@example.com');
    await ok(sb.api('PUT', `/v0/rules/${rule.id}`, {rule: {action: 'accept'}}));
    const changed = await c.poll();
    expect(summary(changed)).toEqual(['rule.changed']);
    expect(changed[0]!.detail).toEqual(['action: drop → accept']);
    await ok(sb.api('DELETE', `/v0/rules/${rule.id}`), 204);
    expect(summary(await c.poll())).toEqual(['rule.removed']);

    await ok(sb.api('PATCH', '/v0/configuration', {configuration: {default_client_mtu: 1380}}));
    const config = await c.poll();
    expect(summary(config)).toEqual(['configuration.changed']);
    expect(config[0]!.detail).toEqual(['MTU: 1280 → 1380']);

    // A new key, as K or any other client makes it (0.7.36 ignores a key on update): the device
    // deleted and created again with the same owner, name and addresses between two polls.
    const before = (await ok(sb.api('GET', `/v0/devices/${dev.id}`))).data;
    await ok(sb.api('DELETE', `/v0/devices/${dev.id}`), 204);
    const renewed = (
      await ok(
        sb.api('POST', '/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: before.name, ipv4: before.ipv4, ipv6: before.ipv6}}),
        201,
      )
    ).data;
    const rekeyed = await c.poll();
    expect(summary(rekeyed)).toEqual(['device.rekeyed']);
    expect(rekeyed[0]!.detail).toEqual([`public key: ${before.public_key} → ${renewed.public_key}`, `id: ${dev.id} → ${renewed.id}`]);
    await ok(sb.api('DELETE', `/v0/devices/${renewed.id}`), 204);
    expect(summary(await c.poll())).toEqual(['device.deleted']);
    await ok(sb.api('PUT', `/v0/users/${user.id}`, {user: {email: 'anna@example.com'}}));
    expect(summary(await c.poll())).toEqual(['user.email']);
    await ok(sb.api('DELETE', `/v0/users/${user.id}`), 204);
    expect(summary(await c.poll())).toEqual(['user.deleted']);

    const seen = new Set(c.tracker.events.list().map((e) => e.kind));
    const all: ActivityKind[] = [
      'device.created',
      'device.deleted',
      'device.online',
      'device.idle',
      'device.roamed',
      'device.renamed',
      'device.updated',
      'device.rekeyed',
      'user.created',
      'user.deleted',
      'user.role',
      'user.email',
      'user.disabled',
      'user.enabled',
      'user.signed_in',
      'rule.added',
      'rule.removed',
      'rule.changed',
      'configuration.changed',
    ];
    expect(all.filter((k) => !seen.has(k))).toEqual([]);
  });

  it('writes of this console are "by you"; another client’s are not', async () => {
    const c = console_();
    await c.poll();
    const mine = (await sb.client.createUser({email: 'mine@example.com'})).data;
    c.tracker.noteLocalWrite({type: 'user', id: mine.id, action: 'created'});
    const theirs = (await ok(sb.api('POST', '/v0/users', {user: {email: 'theirs@example.com'}}), 201)).data;
    const events = await c.poll();
    expect(events.map((e) => `${e.object.label} ${e.by}`).sort()).toEqual(['mine@example.com you', 'theirs@example.com null']);
    await sb.client.deleteUser(mine.id);
    c.tracker.noteLocalWrite({type: 'user', id: mine.id, action: 'deleted'});
    await sb.client.deleteUser(theirs.id);
    expect((await c.poll()).map((e) => `${e.object.label} ${e.by}`).sort()).toEqual(['mine@example.com you', 'theirs@example.com null']);
  });

  it('no event twice after an error and the recovery, and a change during the outage once', async () => {
    const c = console_();
    await c.poll();
    // The change lands just before the server starts failing; the first good poll after it reports it.
    const outage = (await ok(sb.api('POST', '/v0/users', {user: {email: 'during@example.com'}}), 201)).data;
    await ok(sb.api('PUT', '/_sandbox/faults', {mode: 'empty-500'}));
    await expect(c.poll()).rejects.toThrow();
    await expect(c.poll()).rejects.toThrow();
    await ok(sb.api('PUT', '/_sandbox/faults', {mode: 'none'}));
    expect(summary(await c.poll())).toEqual(['user.created']);
    expect(await c.poll()).toEqual([]);
    expect(c.tracker.events.list({text: 'during@'})).toHaveLength(1);
    await ok(sb.api('DELETE', `/v0/users/${outage.id}`), 204);
  });
});
