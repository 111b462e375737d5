// The man page and the shell completions are made from the command-line tables; these tests hold
// the committed man page to them (UPDATE_MAN=1 rewrites it: `npm run man`), check the roff, and run
// the bash completion for real.
import {execFileSync, spawnSync} from 'node:child_process';
import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {ACTIVITY_OPTIONS, CONSOLE_OPTIONS, ENVIRONMENT, SANDBOX_OPTIONS, SUBCOMMANDS, consoleHelp} from '../../src/config/cli-spec.js';
import {completionScript} from '../../src/config/completion.js';
import {esc, manPage} from '../../src/config/manpage.js';
import {BINDINGS} from '../../src/state/input/keymap.js';
import {keyHelp} from '../../src/state/input/key-help.js';
import {COMMAND_LIST} from '../../src/state/commands/registry.js';
import {sandboxHelp} from '../../src/sandbox/options.js';
import {BIN, hasBinary} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';

const MAN = new URL('../../man/fz-console.1', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string; man?: string | string[]};
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

describe('the man page', () => {
  it('is what the tables make (UPDATE_MAN=1 rewrites it) and package.json lists it', () => {
    const expected = manPage(pkg.version);
    if (process.env.UPDATE_MAN === '1') writeFileSync(MAN, expected);
    expect(readFileSync(MAN, 'utf8')).toBe(expected);
    expect(pkg.man).toEqual(['./man/fz-console.1']);
    expect(expected.startsWith('.TH FZ-CONSOLE 1 ')).toBe(true);
  });

  it('holds every flag, subcommand, sandbox option, variable, key and command', () => {
    const page = manPage(pkg.version);
    for (const o of CONSOLE_OPTIONS) expect(page).toContain(esc(o.flag));
    for (const s of SUBCOMMANDS) expect(page).toContain(`\\fB${esc(`fz-console ${s.name}`)}\\fR`);
    for (const o of SANDBOX_OPTIONS) expect(page).toContain(esc(o.flag));
    for (const o of ACTIVITY_OPTIONS) expect(page).toContain(esc(o.flag));
    for (const e of ENVIRONMENT) expect(page).toContain(esc(e.name));
    for (const b of BINDINGS) expect(page, `${b.scope}/${b.action}`).toContain(esc(keyHelp(b)));
    for (const c of COMMAND_LIST) expect(page).toContain(esc(c.help));
  });

  it('makes text inert: a leading dot or quote, backslashes, hyphens', () => {
    expect(esc('.SH evil')).toBe('\\&.SH evil');
    expect(esc("'br")).toBe("\\&'br");
    expect(esc('a\\b')).toBe('a\\eb');
    expect(esc('--url')).toBe('\\-\\-url');
    // No line of the page starts a request it did not mean to.
    const requests = new Set(['.TH', '.SH', '.SS', '.TP', '.br']);
    for (const line of manPage(pkg.version).split('\n')) if (line.startsWith('.')) expect(requests.has(line.split(' ')[0]!), line).toBe(true);
  });

  it.skipIf(!has('man'))('renders with man, without warnings', () => {
    const r = spawnSync('man', ['--warnings', '-l', '-E', 'UTF-8', '-P', 'cat', MAN.pathname], {encoding: 'utf8', env: {...process.env, MANWIDTH: '80'}});
    expect(r.stderr).toBe('');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('fz-console - a keyboard-driven console for Firezone 0.7');
  });
});

describe('--help and the sandbox help come from the same tables', () => {
  it('every option and variable is in --help; every sandbox option in sandbox --help', () => {
    const help = consoleHelp();
    for (const o of CONSOLE_OPTIONS) expect(help).toContain(o.flag);
    for (const e of ENVIRONMENT) expect(help).toContain(e.name);
    for (const s of SUBCOMMANDS) expect(help).toContain(`fz-console ${s.name} ${s.args}`);
    for (const o of SANDBOX_OPTIONS) expect(sandboxHelp()).toContain(`${o.flag}${o.arg ? ` ${o.arg}` : ''}`);
  });
});

describe('shell completion', () => {
  // The scripts and homes of a test, removed after it (every bash and binary it ran has exited).
  const tmp = new TempDirs();
  afterEach(() => tmp.remove());

  /** Runs the bash completion for the words typed so far (the last one being completed). */
  function completeBash(typed: string[], env: NodeJS.ProcessEnv = process.env): string[] {
    const dir = tmp.make('fz-compl-');
    writeFileSync(join(dir, 'script.bash'), completionScript('bash'));
    const words = typed.map((w) => `'${w}'`).join(' ');
    const out = execFileSync(
      'bash',
      ['-c', `source ${dir}/script.bash; COMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; _fz_console; printf '%s\\n' "\${COMPREPLY[@]}"`],
      {
        encoding: 'utf8',
        env,
      },
    );
    return out.split('\n').filter(Boolean);
  }

  it('bash: flags, subcommands, values of the sandbox, shells', () => {
    expect(completeBash(['fz-console', '--pro'])).toEqual(['--profile']);
    expect(completeBash(['fz-console', 's'])).toEqual(['sandbox']);
    expect(completeBash(['fz-console', 'sandbox', '--se'])).toEqual(['--seed']);
    expect(completeBash(['fz-console', 'sandbox', '--seed', ''])).toEqual(['demo', 'empty']);
    expect(completeBash(['fz-console', 'sandbox', '--port', ''])).toEqual([]);
    expect(completeBash(['fz-console', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(completeBash(['fz-console', '--url', ''])).toEqual([]);
    expect(completeBash(['fz-console', '--read-only', '--de']).sort()).toEqual(['--debug', '--demo']);
    expect(completeBash(['fz-console', 'activity', '--f'])).toEqual(['--follow']);
    expect(completeBash(['fz-console', 'activity', '--interval', ''])).toEqual([]);
  });

  it.skipIf(!hasBinary())('bash: --profile completes the names of the config file, asked of the binary', () => {
    const home = tmp.make('fz-compl-home-');
    const bin = join(home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'fz-console'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'fz-console'), 0o755);
    mkdirSync(join(home, 'config', 'fz-console'), {recursive: true});
    const config = join(home, 'config', 'fz-console', 'config.json');
    writeFileSync(config, JSON.stringify({profiles: {prod: {url: 'https://a'}, lab: {url: 'https://b'}, 'prod-eu': {url: 'https://c'}}}), {mode: 0o600});
    chmodSync(config, 0o600);
    const env = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), PATH: `${bin}:${process.env.PATH}`};
    expect(completeBash(['fz-console', '--profile', 'pro'], env)).toEqual(['prod', 'prod-eu']);
    // A config file others can read: the console refuses it, and completion offers nothing (no error on the command line).
    chmodSync(config, 0o644);
    expect(completeBash(['fz-console', '--profile', ''], env)).toEqual([]);
    const r = spawnSync(process.execPath, [BIN, 'completion', '--profiles'], {encoding: 'utf8', env});
    expect({status: r.status, stdout: r.stdout, stderr: r.stderr}).toEqual({status: 0, stdout: '', stderr: ''});
  });

  it.skipIf(!hasBinary())('the binary prints each script, and refuses an unknown shell with status 2', () => {
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const r = spawnSync(process.execPath, [BIN, 'completion', shell], {encoding: 'utf8'});
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(completionScript(shell));
    }
    const bad = spawnSync(process.execPath, [BIN, 'completion', 'tcsh'], {encoding: 'utf8'});
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('fz-console: completion takes one of bash, zsh, fish (e.g. eval "$(fz-console completion bash)")\n');
  });

  it.skipIf(!has('zsh'))('zsh: the script parses', () => {
    expect(spawnSync('zsh', ['-n'], {input: completionScript('zsh')}).status).toBe(0);
  });

  it.skipIf(!has('fish'))('fish: the script parses', () => {
    // From a file: fish 3.6 reading a script from a pipe here fails with "Unable to read input file".
    const file = join(tmp.make('fz-compl-fish-'), 'fz-console.fish');
    writeFileSync(file, completionScript('fish'));
    const r = spawnSync('fish', ['--no-execute', file], {encoding: 'utf8'});
    expect({status: r.status, stderr: r.stderr}).toEqual({status: 0, stderr: ''});
  });

  it('every flag is in every script', () => {
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const script = completionScript(shell);
      for (const o of CONSOLE_OPTIONS) expect(script, `${shell} ${o.flag}`).toContain(shell === 'fish' ? `-l ${o.flag.slice(2)}` : o.flag);
      for (const o of SANDBOX_OPTIONS) expect(script, `${shell} ${o.flag}`).toContain(shell === 'fish' ? `-l ${o.flag.slice(2)}` : o.flag);
      for (const o of ACTIVITY_OPTIONS) expect(script, `${shell} ${o.flag}`).toContain(shell === 'fish' ? `-l ${o.flag.slice(2)}` : o.flag);
    }
  });
});
