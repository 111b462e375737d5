import {execFileSync} from 'node:child_process';
import {writeFileSync, chmodSync, mkdirSync, statSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {ConfigError, configPath, resolveConnection, runTokenCommand, writeConfigFile, type ConfigFile} from '../../src/config/profile.js';
import {UsageError} from '../../src/config/args.js';
import {TempDirs} from '../helpers/tmp.js';

const noFlags = {insecure: false, readOnly: false, demo: false, debug: false};
let home: string;
let env: NodeJS.ProcessEnv;
const tmp = new TempDirs();

function writeConfig(config: unknown, mode = 0o600) {
  const path = configPath(env);
  mkdirSync(join(path, '..'), {recursive: true});
  writeFileSync(path, JSON.stringify(config));
  chmodSync(path, mode);
  return path;
}

beforeEach(() => {
  home = tmp.make('fzc-profile-');
  env = {HOME: home, XDG_CONFIG_HOME: join(home, 'cfg')};
});
afterEach(() => tmp.remove());

describe('resolveConnection', () => {
  it('first-run when no URL is configured anywhere', async () => {
    const r = await resolveConnection(noFlags, env);
    expect(r.kind).toBe('first-run');
  });

  it('flag > environment > profile', async () => {
    const tokenFile = join(home, 'tok');
    writeFileSync(tokenFile, 'profile-token\n', {mode: 0o600});
    writeConfig({defaultProfile: 'prod', profiles: {prod: {url: 'https://profile', tokenFile, refresh: 10, readOnly: true}}});
    let r = await resolveConnection(noFlags, env);
    expect(r).toMatchObject({
      kind: 'connection',
      connection: {url: 'https://profile', token: 'profile-token', label: 'prod', refreshSeconds: 10, readOnly: true},
    });
    r = await resolveConnection(noFlags, {...env, FZ_URL: 'https://env', FZ_API_TOKEN: 'env-token', FZ_REFRESH: '3'});
    expect(r).toMatchObject({connection: {url: 'https://env', token: 'env-token', refreshSeconds: 3}});
    r = await resolveConnection({...noFlags, url: 'https://flag', refresh: 1}, {...env, FZ_URL: 'https://env', FZ_API_TOKEN: 'env-token'});
    expect(r).toMatchObject({connection: {url: 'https://flag', refreshSeconds: 1}});
  });

  it("a default profile's token goes only to its own server; the header names the profile only for it", async () => {
    const tokenFile = join(home, 'tok');
    writeFileSync(tokenFile, 'profile-token\n', {mode: 0o600});
    writeConfig({defaultProfile: 'prod', profiles: {prod: {url: 'https://profile', tokenFile}}});
    // Another server from the environment, no token for it: refused, the profile's token kept back.
    await expect(resolveConnection(noFlags, {...env, FZ_URL: 'https://elsewhere'})).rejects.toThrow(
      'no API token for https://elsewhere: set FZ_API_TOKEN or FZ_API_TOKEN_FILE (the token of the default profile "prod" is only sent to its own server https://profile; --profile prod sends it anyway)',
    );
    await expect(resolveConnection({...noFlags, url: 'https://elsewhere'}, env)).rejects.toThrow(UsageError);
    // With its own token: connected, and the header shows the URL, not "prod".
    let r = await resolveConnection(noFlags, {...env, FZ_URL: 'https://elsewhere', FZ_API_TOKEN: 'env-token'});
    expect(r).toMatchObject({connection: {url: 'https://elsewhere', token: 'env-token', label: 'https://elsewhere', profile: null}});
    // Named on purpose, the profile's token goes along.
    r = await resolveConnection({...noFlags, profile: 'prod', url: 'https://elsewhere'}, env);
    expect(r).toMatchObject({connection: {url: 'https://elsewhere', token: 'profile-token', profile: 'prod'}});
    r = await resolveConnection(noFlags, env);
    expect(r).toMatchObject({connection: {url: 'https://profile', token: 'profile-token', label: 'prod', profile: 'prod'}});
  });

  it('activityLog (home expanded) and staleDays come from the profile unless a flag says otherwise', async () => {
    writeConfig({profiles: {p: {url: 'https://x', tokenCommand: 'printf "t\\n"', activityLog: '~/audit.jsonl', staleDays: 60}}});
    let r = await resolveConnection({...noFlags, profile: 'p'}, env);
    expect(r).toMatchObject({connection: {activityLog: join(home, 'audit.jsonl'), staleDays: 60}});
    r = await resolveConnection({...noFlags, profile: 'p', activityLog: '/tmp/x.jsonl', staleDays: 7}, env);
    expect(r).toMatchObject({connection: {activityLog: '/tmp/x.jsonl', staleDays: 7}});
    writeConfig({profiles: {p: {url: 'https://x', tokenCommand: 'printf "t\\n"', staleDays: 0}}});
    await expect(resolveConnection({...noFlags, profile: 'p'}, env)).rejects.toThrow(/staleDays/);
  });

  it("the mouse: on by default, off with the profile's mouse: false or with --no-mouse (which a profile cannot turn back on)", async () => {
    writeConfig({
      profiles: {
        on: {url: 'https://x', tokenCommand: 'printf "t\\n"'},
        off: {url: 'https://x', tokenCommand: 'printf "t\\n"', mouse: false},
        yes: {url: 'https://x', tokenCommand: 'printf "t\\n"', mouse: true},
      },
    });
    expect(await resolveConnection({...noFlags, profile: 'on'}, env)).toMatchObject({connection: {mouse: true}});
    expect(await resolveConnection({...noFlags, profile: 'off'}, env)).toMatchObject({connection: {mouse: false}});
    expect(await resolveConnection({...noFlags, profile: 'yes', noMouse: true}, env)).toMatchObject({connection: {mouse: false}});
    // The first-run screen's settings carry it too; a value that is not a boolean is the file's error.
    expect(await resolveConnection({...noFlags, noMouse: true}, env)).toMatchObject({kind: 'first-run', settings: {mouse: false}});
    expect(await resolveConnection(noFlags, env)).toMatchObject({kind: 'first-run', settings: {mouse: true}});
    writeConfig({profiles: {p: {url: 'https://x', tokenCommand: 'printf "t\\n"', mouse: 'no'}}});
    await expect(resolveConnection({...noFlags, profile: 'p'}, env)).rejects.toThrow(/profiles\.p\.mouse/);
  });

  it('tokenCommand output is the token', async () => {
    writeConfig({profiles: {p: {url: 'https://x', tokenCommand: 'printf "cmd-token\\n"'}}});
    const r = await resolveConnection({...noFlags, profile: 'p'}, env);
    expect(r).toMatchObject({connection: {token: 'cmd-token'}});
  });

  it('refuses a config file readable by others, with the chmod hint', async () => {
    const path = writeConfig({profiles: {}}, 0o644);
    await expect(resolveConnection(noFlags, env)).rejects.toThrow(`mode 644); run: chmod 600 ${path}`);
  });

  it('refuses a token file readable by group', async () => {
    const tokenFile = join(home, 'tok');
    writeFileSync(tokenFile, 'x');
    chmodSync(tokenFile, 0o640);
    await expect(resolveConnection({...noFlags, url: 'https://x'}, {...env, FZ_API_TOKEN_FILE: tokenFile})).rejects.toThrow(ConfigError);
  });

  it('names the file, key and problem for an invalid config', async () => {
    const path = writeConfig({profiles: {prod: {url: 'https://x', refresh: 'fast'}}});
    await expect(resolveConnection(noFlags, env)).rejects.toThrow(`Config file ${path}: profiles.prod.refresh:`);
  });

  it('unknown profile lists the known ones', async () => {
    writeConfig({profiles: {a: {url: 'https://a'}, b: {url: 'https://b'}}});
    await expect(resolveConnection({...noFlags, profile: 'c'}, env)).rejects.toThrow('(profiles: a, b)');
  });

  it('a profile is one the file names: inherited members of an object (constructor, toString, __proto__) are none', async () => {
    const path = writeConfig({profiles: {a: {url: 'https://a', tokenCommand: 'echo t'}}});
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      await expect(resolveConnection({...noFlags, profile: name}, env), name).rejects.toThrow(
        new ConfigError(`Profile "${name}" is not in ${path} (profiles: a)`),
      );
      await expect(resolveConnection(noFlags, {...env, FZ_PROFILE: name}), name).rejects.toThrow(`Profile "${name}" is not in`);
    }
    writeConfig({defaultProfile: 'toString', profiles: {a: {url: 'https://a'}}});
    await expect(resolveConnection(noFlags, env)).rejects.toThrow('Profile "toString" is not in');
    // A profile the file does name so is one.
    writeConfig({profiles: {constructor: {url: 'https://c', tokenCommand: 'echo t'}}});
    expect(await resolveConnection({...noFlags, profile: 'constructor'}, env)).toMatchObject({connection: {url: 'https://c', label: 'constructor'}});
  });

  it("a profile named __proto__ in the file is the file's error, on reading and on saving, not dropped without a word", async () => {
    const path = configPath(env);
    mkdirSync(join(path, '..'), {recursive: true});
    writeFileSync(path, '{"profiles": {"__proto__": {"url": "https://p"}, "a": {"url": "https://a"}}}', {mode: 0o600});
    await expect(resolveConnection({...noFlags, profile: 'a'}, env)).rejects.toThrow(
      new ConfigError(`Config file ${path}: profiles: "__proto__" cannot be a profile name`),
    );
    const file = JSON.parse('{"profiles": {"__proto__": {"url": "https://p"}}}') as ConfigFile;
    const other = join(home, 'other.json');
    await expect(writeConfigFile(other, file)).rejects.toThrow(new ConfigError(`Config file ${other}: profiles: "__proto__" cannot be a profile name`));
  });

  it('a URL without a token is a usage error that says where tokens come from', async () => {
    await expect(resolveConnection({...noFlags, url: 'https://x'}, env)).rejects.toThrow(UsageError);
  });

  it('writeConfigFile writes 0600', async () => {
    const path = configPath(env);
    await writeConfigFile(path, {profiles: {p: {url: 'https://x'}}});
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({profiles: {p: {url: 'https://x'}}});
  });
});

describe('start-up checks', () => {
  it('a token file that is a directory is refused by name', async () => {
    const dir = join(home, 'tokdir');
    mkdirSync(dir, {mode: 0o700});
    await expect(resolveConnection({...noFlags, url: 'https://x'}, {...env, FZ_API_TOKEN_FILE: dir})).rejects.toThrow(
      new ConfigError(`Token file ${dir} is a directory, not a regular file`),
    );
  });

  it('a token file that is a FIFO is refused at once, not read (which would hang)', async () => {
    const fifo = join(home, 'tokfifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    writeConfig({profiles: {p: {url: 'https://x', tokenFile: fifo}}});
    await expect(resolveConnection({...noFlags, profile: 'p'}, env)).rejects.toThrow(
      new ConfigError(`Token file ${fifo} is a named pipe (FIFO), not a regular file`),
    );
  });

  it('a missing token file names the file and the errno', async () => {
    await expect(resolveConnection({...noFlags, url: 'https://x'}, {...env, FZ_API_TOKEN_FILE: join(home, 'nope')})).rejects.toThrow(
      `Cannot read token file ${join(home, 'nope')}: ENOENT`,
    );
  });

  it('a single trailing newline is trimmed from a token file; a line break inside is refused, without the token', async () => {
    const tokenFile = join(home, 'tok');
    writeFileSync(tokenFile, 'good-token\n', {mode: 0o600});
    expect(await resolveConnection({...noFlags, url: 'https://x'}, {...env, FZ_API_TOKEN_FILE: tokenFile})).toMatchObject({connection: {token: 'good-token'}});
    writeFileSync(tokenFile, 'first-half\nsecond-half\n', {mode: 0o600});
    const err = await resolveConnection({...noFlags, url: 'https://x'}, {...env, FZ_API_TOKEN_FILE: tokenFile}).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`The API token from FZ_API_TOKEN_FILE ${tokenFile} contains a line break; a token is one line`);
    expect((err as Error).message).not.toMatch(/first-half|second-half/);
  });

  it.each([
    ['a CR', 'abc\rdef'],
    ['a character outside Latin-1', 'tok€n'],
    ['a control character', 'tok\u0000en'],
  ])('FZ_API_TOKEN with %s is refused with a clear message', async (_what, token) => {
    const err = await resolveConnection({...noFlags, url: 'https://x'}, {...env, FZ_API_TOKEN: token}).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^The API token from FZ_API_TOKEN contains (a line break|a character that cannot be sent in an HTTP header)/);
  });

  it("a tokenCommand's token is its first line that is not blank (a pass entry's other lines are not part of it)", async () => {
    writeConfig({profiles: {p: {url: 'https://x', tokenCommand: 'printf "\\n  \\none\\nURL: https://x\\n"'}}});
    expect(await resolveConnection({...noFlags, profile: 'p'}, env)).toMatchObject({connection: {token: 'one'}});
  });

  it('a tokenCommand token that cannot be sent in a header is refused, naming the profile', async () => {
    writeConfig({profiles: {p: {url: 'https://x', tokenCommand: 'printf "tok\\rbad\\n"'}}});
    await expect(resolveConnection({...noFlags, profile: 'p'}, env)).rejects.toThrow(
      'The API token from the tokenCommand of profile "p" contains a line break',
    );
  });

  it('tokenCommand runs exactly once per resolution', async () => {
    const counter = join(home, 'count');
    writeConfig({profiles: {p: {url: 'https://x', tokenCommand: `echo run >> ${counter}; echo tok`}}});
    await resolveConnection({...noFlags, profile: 'p'}, env);
    expect(readFileSync(counter, 'utf8')).toBe('run\n');
  });

  it('tokenCommand times out, killing the whole pipeline, and does not wait for it', async () => {
    const started = Date.now();
    await expect(runTokenCommand('sleep 30; echo late', {timeoutMs: 300})).rejects.toThrow(new ConfigError('tokenCommand timed out after 0.3 s'));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('tokenCommand failures say how, not what it printed', async () => {
    await expect(runTokenCommand('echo secret >&2; exit 3')).rejects.toThrow(new ConfigError('tokenCommand exited with status 3'));
    await expect(runTokenCommand('true')).rejects.toThrow(new ConfigError('tokenCommand printed no token'));
  });

  it('--ca-file: missing, a directory, or without a PEM certificate is a ConfigError', async () => {
    const flags = {...noFlags, url: 'https://x'};
    const withToken = {...env, FZ_API_TOKEN: 't'};
    await expect(resolveConnection({...flags, caFile: join(home, 'missing.pem')}, withToken)).rejects.toThrow(
      new ConfigError(`Cannot read CA file ${join(home, 'missing.pem')}: ENOENT`),
    );
    await expect(resolveConnection({...flags, caFile: home}, withToken)).rejects.toThrow(new ConfigError(`CA file ${home} is a directory, not a regular file`));
    const notPem = join(home, 'notpem.pem');
    writeFileSync(notPem, 'hello\n');
    await expect(resolveConnection({...flags, caFile: notPem}, withToken)).rejects.toThrow(
      new ConfigError(`CA file ${notPem} contains no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`),
    );
    const pem = join(home, 'ok.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(await resolveConnection({...flags, caFile: pem}, withToken)).toMatchObject({connection: {caFile: pem}});
  });
});
