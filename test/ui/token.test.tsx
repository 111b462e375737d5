// A rejected token is not "offline": the console says it was rejected and why, asks for a new one
// (masked), and resumes live updates with the screen, filter and cursor as they were.
import {afterEach, describe, expect, it} from 'vitest';
import {FirezoneClient} from '../../src/api/index.js';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(() => cleanupRigs());

async function issueToken(): Promise<{token: string; id: string}> {
  const users = (await fx.api('GET', '/v0/users')).json.data as Array<{id: string; email: string}>;
  const admin = users.find((u) => u.email === 'admin@sandbox.test')!;
  return (await fx.api('POST', '/_sandbox/tokens', {user_id: admin.id, expires_in_days: 1})).json;
}

describe('a rejected token', () => {
  it('asks for a new token and resumes with the screen, filter and cursor kept', {timeout: 30_000}, async () => {
    const {token, id} = await issueToken();
    const client = new FirezoneClient({baseUrl: fx.sandbox.url, token});
    try {
      const app = await renderApp({client, settings: {refreshSeconds: 1}});
      await app.press('screen2');
      await app.press('filter', 'list');
      await app.type('example.com');
      await app.press('filterAccept', 'filter');
      await app.press('down', 'list', 3);
      const before = await app.waitFor(/4\/\d+ of \d+ users/);
      const position = /(\d+\/\d+ of \d+ users)/.exec(before)![1]!;
      await fx.api('DELETE', `/_sandbox/tokens/${id}`);
      const prompt = await app.waitFor('The server rejected the API token: it was revoked or expired, or its user was deleted', 10_000);
      expect(prompt).toContain('New API token');
      // Live updates hold while the prompt is open.
      expect(prompt).not.toContain('retry in');
      // A wrong token is refused at the prompt with the server's reason, and the prompt stays for
      // another (it left the console offline with no way back but quitting).
      await app.paste('garbage');
      await app.press('accept', 'prompt');
      await app.waitFor('The server rejected that token too: its signature does not match this server', 10_000);
      expect(app.frame()).toContain('New API token');
      await app.paste(token);
      await app.press('accept', 'prompt');
      await app.waitFor('The server rejected that token too: it was revoked or expired', 10_000);
      expect(app.frame()).toContain('New API token');
      await app.paste(fx.sandbox.adminToken);
      // The token is masked, never shown.
      expect(app.frames.join('\n')).not.toContain(fx.sandbox.adminToken);
      await app.press('accept', 'prompt');
      await app.waitFor('Token accepted; resuming live updates');
      const after = await app.waitFor(/live 1s/);
      expect(after).toContain(position);
      expect(after).toContain('filter "example.com"');
      expect(app.frames.join('\n')).not.toContain(fx.sandbox.adminToken);
    } finally {
      await client.close();
    }
  });

  it('a profile whose token comes from a file or command is re-read first', {timeout: 30_000}, async () => {
    const first = await issueToken();
    const second = await issueToken();
    const client = new FirezoneClient({baseUrl: fx.sandbox.url, token: first.token});
    try {
      let reads = 0;
      const app = await renderApp({
        client,
        settings: {refreshSeconds: 1},
        reloadToken: async () => {
          reads++;
          return second.token;
        },
      });
      await fx.api('DELETE', `/_sandbox/tokens/${first.id}`);
      await app.waitFor('re-read it from its source and retrying', 10_000);
      await app.waitFor(/live 1s/);
      expect(reads).toBe(1);
      expect(app.frame()).not.toContain('New API token');
    } finally {
      await client.close();
    }
  });

  it('a form saved after the token was revoked asks for a new token, then saves, nothing typed lost', {timeout: 30_000}, async () => {
    const {token, id} = await issueToken();
    const client = new FirezoneClient({baseUrl: fx.sandbox.url, token});
    try {
      const app = await renderApp({client});
      await app.press('screen2');
      await app.press('new', 'list');
      await app.waitFor('Add user');
      await app.type('after-rotation@example.com');
      // Rotated while the form was open: polls hold under a form, so only the save finds out.
      await fx.api('DELETE', `/_sandbox/tokens/${id}`);
      await app.press('save');
      const prompt = await app.waitFor('New API token', 10_000);
      expect(prompt.replace(/\s*\n\s*/g, ' ')).toContain('Then the form is saved again, as it is (nothing typed is lost).');
      await app.paste(fx.sandbox.adminToken);
      await app.press('accept', 'prompt');
      await app.waitFor('User created successfully: after-rotation@example.com', 10_000);
      const users = (await fx.api('GET', '/v0/users')).json.data as Array<{email: string}>;
      expect(users.filter((u) => u.email === 'after-rotation@example.com')).toHaveLength(1);
      expect(app.frames.join('\n')).not.toContain(fx.sandbox.adminToken);
    } finally {
      await client.close();
    }
  });

  it('E: changes sent after the token was revoked ask for a new token, then are shown again for y, nothing lost', {timeout: 30_000}, async () => {
    const {token, id} = await issueToken();
    const client = new FirezoneClient({baseUrl: fx.sandbox.url, token});
    const editText = () => async (request: {text: string}) => ({
      ok: true as const,
      text: request.text.replace(/"description": "[^"]*"/, '"description": "after rotation"'),
    });
    try {
      const app = await renderApp({client, editText});
      await app.press('filter', 'list');
      await app.type('user-laptop');
      await app.press('filterAccept', 'filter');
      await app.keys('E');
      await app.waitFor('→ "after rotation"');
      await fx.api('DELETE', `/_sandbox/tokens/${id}`);
      await app.keys('y');
      const prompt = await app.waitFor('New API token', 10_000);
      expect(prompt.replace(/\s*\n\s*/g, ' ')).toContain('the changes from the editor are shown again for y to send');
      await app.paste(fx.sandbox.adminToken);
      await app.press('accept', 'prompt');
      await app.waitFor('→ "after rotation"', 10_000);
      await app.keys('y');
      await app.waitFor('Device updated: user-laptop', 10_000);
      const devices = (await fx.api('GET', '/v0/devices')).json.data as Array<{name: string; description: string | null}>;
      expect(devices.find((d) => d.name === 'user-laptop')?.description).toBe('after rotation');
    } finally {
      await client.close();
    }
  });

  it("a form's save re-reads a profile's token source first and saves with it, no prompt", {timeout: 30_000}, async () => {
    const first = await issueToken();
    const second = await issueToken();
    const client = new FirezoneClient({baseUrl: fx.sandbox.url, token: first.token});
    try {
      const app = await renderApp({client, reloadToken: async () => second.token});
      await app.press('screen2');
      await app.press('new', 'list');
      await app.waitFor('Add user');
      await app.type('reread@example.com');
      await fx.api('DELETE', `/_sandbox/tokens/${first.id}`);
      await app.press('save');
      await app.waitFor('User created successfully: reread@example.com', 10_000);
      expect(app.frames.join('\n')).not.toContain('New API token');
    } finally {
      await client.close();
    }
  });

  it("deleting the token's own user says first that it locks the console out", async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.press('filter', 'list');
    await app.type('admin@sandbox.test');
    await app.press('filterAccept', 'filter');
    await app.press('delete', 'list');
    const frame = (await app.waitFor(/Delete user admin@sandbox\.test/)).replace(/\s+/g, ' ');
    expect(frame).toContain("This is the user of this console's API token: deleting them deletes the token too");
    await app.named('n');
    await app.waitFor('Cancelled');
  });
});
