import {mkdtempSync, writeFileSync, chmodSync, mkdirSync, statSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {beforeEach, describe, expect, it} from 'vitest';
import {ConfigError, configPath, resolveConnection, writeConfigFile} from '../../src/config/profile.js';
import {UsageError} from '../../src/config/args.js';

const noFlags = {insecure: false, readOnly: false, demo: false, debug: false};
let home: string;
let env: NodeJS.ProcessEnv;

function writeConfig(config: unknown, mode = 0o600) {
  const path = configPath(env);
  mkdirSync(join(path, '..'), {recursive: true});
  writeFileSync(path, JSON.stringify(config));
  chmodSync(path, mode);
  return path;
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'fzc-profile-'));
  env = {HOME: home, XDG_CONFIG_HOME: join(home, 'cfg')};
});

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
    expect(r).toMatchObject({kind: 'connection', connection: {url: 'https://profile', token: 'profile-token', label: 'prod', refreshSeconds: 10, readOnly: true}});
    r = await resolveConnection(noFlags, {...env, FZ_URL: 'https://env', FZ_API_TOKEN: 'env-token', FZ_REFRESH: '3'});
    expect(r).toMatchObject({connection: {url: 'https://env', token: 'env-token', refreshSeconds: 3}});
    r = await resolveConnection({...noFlags, url: 'https://flag', refresh: 1}, {...env, FZ_URL: 'https://env', FZ_API_TOKEN: 'env-token'});
    expect(r).toMatchObject({connection: {url: 'https://flag', refreshSeconds: 1}});
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
