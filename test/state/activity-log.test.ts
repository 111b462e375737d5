import {execFileSync} from 'node:child_process';
import {chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {isMainThread} from 'node:worker_threads';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {ActivityLog, encodeLine} from '../../src/state/tracking/activity-log.js';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {type ActivityEvent} from '../../src/state/tracking/events.js';
import {buildSnapshot} from '../../src/state/data/snapshot.js';
import type {Configuration} from '../../src/api/index.js';
import {device, iso, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fzc-activity-log-'));
});
afterEach(() => {
  rmSync(dir, {recursive: true, force: true});
});

const event = (over: Partial<ActivityEvent> = {}): ActivityEvent => ({
  seq: 1,
  kind: 'device.renamed',
  at: T0,
  object: {type: 'device', id: 'd-1', label: 'laptop'},
  owner: 'ann@example.com',
  text: 'Device old renamed to laptop (ann@example.com)',
  detail: ['name: old → laptop'],
  by: 'you',
  ...over,
});

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('ActivityLog', () => {
  it('creates the file 0600 and appends one JSON line per event', () => {
    const path = join(dir, 'activity.jsonl');
    const log = ActivityLog.open(path);
    log.append([event(), event({seq: 2, kind: 'device.online', detail: [], by: null, text: 'laptop (ann@example.com) came online'})]);
    log.append([]);
    log.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(lines(path)).toEqual([
      {
        time: '2026-01-01T12:00:00.000Z',
        kind: 'device.renamed',
        type: 'device',
        id: 'd-1',
        label: 'laptop',
        owner: 'ann@example.com',
        text: 'Device old renamed to laptop (ann@example.com)',
        detail: ['name: old → laptop'],
        by: 'you',
      },
      {
        time: '2026-01-01T12:00:00.000Z',
        kind: 'device.online',
        type: 'device',
        id: 'd-1',
        label: 'laptop',
        owner: 'ann@example.com',
        text: 'laptop (ann@example.com) came online',
        by: null,
      },
    ]);
  });

  it('appends to an existing owner-only file (a second session) as it is', () => {
    const path = join(dir, 'activity.jsonl');
    writeFileSync(path, `${JSON.stringify({earlier: true})}\n`, {mode: 0o600});
    chmodSync(path, 0o400 | 0o200);
    const log = ActivityLog.open(path);
    log.append([event()]);
    log.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(lines(path)).toHaveLength(2);
    expect(lines(path)[0]).toEqual({earlier: true});
  });

  it('never chmods a file it did not create: one that others can read is refused and left as it was', () => {
    const path = join(dir, 'shared.jsonl');
    writeFileSync(path, 'theirs\n');
    chmodSync(path, 0o644);
    expect(() => ActivityLog.open(path)).toThrow(`${path} can be read or written by others (mode 0644): chmod 600 it, or name another file`);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(readFileSync(path, 'utf8')).toBe('theirs\n');
  });

  it('never writes through a symbolic link: a link planted to a dotfile is refused, the dotfile untouched', () => {
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'alias ll="ls -l"\n');
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, 'audit.jsonl'));
    expect(() => ActivityLog.open(join(dir, 'audit.jsonl'))).toThrow(/is a symbolic link: name the file itself/);
    expect(readFileSync(target, 'utf8')).toBe('alias ll="ls -l"\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    // a dangling link is not followed to create its target either
    symlinkSync(join(dir, 'created-through-link'), join(dir, 'dangling.jsonl'));
    expect(() => ActivityLog.open(join(dir, 'dangling.jsonl'))).toThrow(/symbolic link/);
    expect(existsSync(join(dir, 'created-through-link'))).toBe(false);
  });

  it('refuses a FIFO at once (opening one for writing would wait for a reader), a folder and a missing folder', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const started = Date.now();
    expect(() => ActivityLog.open(fifo)).toThrow(/named pipe \(FIFO\)/);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(() => ActivityLog.open(dir)).toThrow(/is a folder/);
    expect(() => ActivityLog.open(join(dir, 'no/such/file'))).toThrow(/ENOENT/);
  });

  // Only the main thread may set the umask: `npm test` runs suites in forks, the mutation run
  // (Stryker's vitest runner) in worker threads, where the other tests' 0600 checks hold the mode.
  it.skipIf(!isMainThread)('creates a new file 0600 whatever the umask', () => {
    const old = process.umask(0o000);
    try {
      const log = ActivityLog.open(join(dir, 'fresh.jsonl'));
      log.close();
    } finally {
      process.umask(old);
    }
    expect(statSync(join(dir, 'fresh.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('hostile text stays one valid line that cannot drive a terminal', () => {
    const hostile = 'evil\n\u001b]52;c;aGk=\u0007\u009b31m\u202enaughty\u2028x\u007f';
    const line = encodeLine(event({object: {type: 'device', id: 'd-1', label: hostile}, text: hostile}));
    expect(line.endsWith('\n')).toBe(true);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(line.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
    expect((JSON.parse(line) as {label: string}).label).toBe(hostile);
  });

  it('writes no secret: a configuration change with new OIDC and SAML secrets, through the tracker', () => {
    const path = join(dir, 'audit.jsonl');
    const log = ActivityLog.open(path, {sync: false});
    const tracker = new ActivityTracker({onEvents: (e) => log.append(e)});
    const config = (secret: string, metadata: string): Configuration => ({
      id: 'c-1',
      allow_unprivileged_device_configuration: true,
      allow_unprivileged_device_management: true,
      default_client_allowed_ips: null,
      default_client_dns: null,
      default_client_endpoint: null,
      default_client_mtu: null,
      default_client_persistent_keepalive: null,
      disable_vpn_on_oidc_error: null,
      local_auth_enabled: null,
      vpn_session_duration: 0,
      logo: null,
      openid_connect_providers: [
        {
          id: 'google',
          label: 'Google',
          scope: 'openid',
          response_type: 'code',
          client_id: 'id',
          client_secret: secret,
          discovery_document_uri: 'https://example.com/.well-known/openid-configuration',
          redirect_uri: null,
          auto_create_users: false,
        },
      ],
      saml_identity_providers: [
        {
          id: 'okta',
          label: 'Okta',
          base_url: null,
          metadata,
          sign_requests: true,
          sign_metadata: true,
          signed_assertion_in_resp: true,
          signed_envelopes_in_resp: true,
          auto_create_users: false,
        },
      ],
      inserted_at: iso(0),
      updated_at: iso(0),
    });
    const data = (c: Configuration) => ({
      devices: [device({preshared_key: 'PSK-SECRET-VALUE'})],
      users: [user()],
      rules: [],
      configuration: c,
      issues: [],
    });
    const a = buildSnapshot(data(config('OLD-CLIENT-SECRET', '<EntityDescriptor>OLD-META</EntityDescriptor>')), null, T0);
    tracker.observe(a);
    const b = buildSnapshot(
      {
        ...data(config('NEW-CLIENT-SECRET', '<EntityDescriptor>NEW-META</EntityDescriptor>')),
        devices: [device({name: 'x', preshared_key: 'PSK-SECRET-VALUE'})],
      },
      a,
      T0 + 1000,
    );
    tracker.observe(b);
    log.close();
    const text = readFileSync(path, 'utf8');
    expect(lines(path).map((l) => l.kind)).toEqual(['device.renamed', 'configuration.changed']);
    expect(text).not.toMatch(/CLIENT-SECRET|META|PSK-SECRET/);
  });
});

describe('ActivityLog failures', () => {
  it('a failed write is returned, not thrown (the poll goes on)', () => {
    const log = ActivityLog.open(join(dir, 'x.jsonl'));
    expect(log.append([event()])).toBeNull();
    log.close();
    expect(log.append([event()])).toEqual({reason: `The activity log ${join(dir, 'x.jsonl')} is closed`, cutBack: true});
  });
});
