// The first-run screen: keys typed in a burst land in the field that had focus when each arrived,
// an existing profile is never replaced without asking, and saved profiles are offered.
import React from 'react';
import {afterEach, describe, expect, it} from 'vitest';
import {cleanup, render} from 'ink-testing-library';
import {FirstRun} from '../../src/ui/FirstRun.js';
import {waitFor} from '../helpers/ink.js';

afterEach(() => cleanup());

describe('first run', () => {
  it('a URL, Tab and a token typed with no pause land in their fields (50 times)', async () => {
    for (let round = 0; round < 50; round++) {
      const calls: Array<{url: string; token: string}> = [];
      const ui = render(
        <FirstRun
          configPath="/cfg/config.json"
          onDemo={() => undefined}
          onConnect={async (r) => {
            calls.push(r);
            return null;
          }}
        />,
      );
      await waitFor(ui.lastFrame, 'Welcome to fz-console');
      ui.stdin.write('c');
      await waitFor(ui.lastFrame, 'Connect to a Firezone server');
      const url = `https://vpn${round}.example.com`;
      const token = `tok-${round}-abcdefghijklmnop`;
      // Alternate between one key per write and whole chunks, all in the same tick.
      if (round % 2 === 0) for (const ch of [...url, '\t', ...token, '\x13']) ui.stdin.write(ch);
      else ui.stdin.write(`${url}\t${token}\x13`);
      await waitFor(() => (calls.length > 0 ? 'called' : ''), 'called');
      expect(calls).toEqual([{url, token}]);
      // The token is never shown in clear.
      expect(ui.frames.join('\n')).not.toContain(token);
      ui.unmount();
    }
  });

  it('asks before replacing a profile of the same name; offers saved profiles', async () => {
    const calls: unknown[] = [];
    const opened: string[] = [];
    const ui = render(
      <FirstRun
        configPath="/cfg/config.json"
        profiles={['prod', 'lab']}
        onDemo={() => undefined}
        onProfile={async (name) => {
          opened.push(name);
          return null;
        }}
        onConnect={async (r) => {
          calls.push(r);
          return null;
        }}
      />,
    );
    let frame = await waitFor(ui.lastFrame, 'open the saved profile');
    expect(frame).toContain('1  open the saved profile prod');
    expect(frame).toContain('2  open the saved profile lab');
    ui.stdin.write('c');
    await waitFor(ui.lastFrame, 'Connect to a Firezone server');
    ui.stdin.write('https://a.example\tsecret-token-value\tprod\r');
    frame = await waitFor(ui.lastFrame, 'A profile named "prod" exists. Replace it?');
    expect(calls).toEqual([]);
    ui.stdin.write('n');
    await waitFor(ui.lastFrame, 'Ctrl-S connect');
    expect(calls).toEqual([]);
    ui.stdin.write('\x13');
    await waitFor(ui.lastFrame, 'Replace it?');
    ui.stdin.write('y');
    await waitFor(() => (calls.length > 0 ? 'called' : ''), 'called');
    expect(calls).toEqual([{url: 'https://a.example', token: 'secret-token-value', profile: 'prod'}]);
    ui.stdin.write('\x1b');
    await waitFor(ui.lastFrame, 'Welcome to fz-console');
    ui.stdin.write('2');
    await waitFor(() => opened.join(','), 'lab');
  });

  it('a pasted token holding control characters is refused with the reason, not dropped in silence', async () => {
    const ui = render(<FirstRun configPath="/cfg/config.json" onDemo={() => undefined} onConnect={async () => null} escapeDelayMs={0} />);
    await waitFor(ui.lastFrame, 'Welcome to fz-console');
    ui.stdin.write('c');
    await waitFor(ui.lastFrame, 'Connect to a Firezone server');
    ui.stdin.write('\x1b[200~https://vpn.example.com\x1b[31m\x1b[201~');
    await waitFor(ui.lastFrame, 'Paste ignored');
    expect(ui.lastFrame()!.replace(/\s+/g, ' ')).toContain(
      'Paste ignored: it holds 1 control character (such as ESC), which Server URL does not take; nothing was inserted',
    );
    ui.stdin.write('\x1b[200~https://vpn.example.com\x1b[201~');
    await waitFor(ui.lastFrame, /Server URL\s+https:\/\/vpn.example.com/);
    expect(ui.lastFrame()).not.toContain('Paste ignored');
  });
});
