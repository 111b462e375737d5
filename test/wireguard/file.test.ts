import {chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {defaultConfigFileName, expandPath, writeConfigFile} from '../../src/wireguard/file.js';

const CONF = '[Interface]\nPrivateKey = secret\n';
const isRoot = process.getuid?.() === 0;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fz-wg-file-'));
});
afterEach(() => {
  chmodSync(dir, 0o700);
  rmSync(dir, {recursive: true, force: true});
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('writeConfigFile', () => {
  it('creates the file with mode 0600', async () => {
    const path = join(dir, 'laptop.conf');
    expect(await writeConfigFile(path, CONF, {overwrite: false})).toEqual({ok: true, path});
    expect(readFileSync(path, 'utf8')).toBe(CONF);
    expect(mode(path)).toBe(0o600);
  });

  it('gets 0600 whatever the umask', async () => {
    const old = process.umask(0o000);
    try {
      const path = join(dir, 'umask.conf');
      await writeConfigFile(path, CONF, {overwrite: false});
      expect(mode(path)).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  it('refuses to overwrite an existing file and leaves it alone', async () => {
    const path = join(dir, 'laptop.conf');
    writeFileSync(path, 'old', {mode: 0o644});
    const result = await writeConfigFile(path, CONF, {overwrite: false});
    expect(result).toEqual({ok: false, reason: 'exists', code: 'EEXIST', message: `${path} already exists`});
    expect(readFileSync(path, 'utf8')).toBe('old');
  });

  it('never writes through a symlink, even a dangling one', async () => {
    const link = join(dir, 'link.conf');
    symlinkSync(join(dir, 'elsewhere.conf'), link);
    expect(await writeConfigFile(link, CONF, {overwrite: false})).toMatchObject({ok: false, reason: 'exists'});
    expect(readdirSync(dir).sort()).toEqual(['link.conf']);
  });

  it('overwrite replaces a 0644 file with a 0600 one and leaves no temp file', async () => {
    const path = join(dir, 'laptop.conf');
    writeFileSync(path, 'old contents that are longer than the new ones '.repeat(5), {mode: 0o644});
    chmodSync(path, 0o644);
    expect(mode(path)).toBe(0o644);
    expect(await writeConfigFile(path, CONF, {overwrite: true})).toEqual({ok: true, path});
    expect(readFileSync(path, 'utf8')).toBe(CONF);
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['laptop.conf']);
  });

  it('overwrite also creates a file that does not exist yet', async () => {
    const path = join(dir, 'new.conf');
    expect(await writeConfigFile(path, CONF, {overwrite: true})).toEqual({ok: true, path});
    expect(mode(path)).toBe(0o600);
  });

  it('says when the folder does not exist', async () => {
    const path = join(dir, 'missing', 'laptop.conf');
    for (const overwrite of [false, true]) {
      expect(await writeConfigFile(path, CONF, {overwrite})).toEqual({
        ok: false,
        reason: 'error',
        code: 'ENOENT',
        message: `Folder ${join(dir, 'missing')} does not exist`,
      });
    }
  });

  it('says when the path is a folder', async () => {
    mkdirSync(join(dir, 'sub'));
    for (const overwrite of [false, true]) {
      const result = await writeConfigFile(join(dir, 'sub'), CONF, {overwrite});
      expect(result).toMatchObject({ok: false, reason: 'error'});
      if (!result.ok) expect(result.message).toBe(`${join(dir, 'sub')} is a folder; give a file name`);
    }
  });

  it('says when a part of the path is not a folder', async () => {
    writeFileSync(join(dir, 'file'), '');
    expect(await writeConfigFile(join(dir, 'file', 'x.conf'), CONF, {overwrite: false})).toMatchObject({ok: false, reason: 'error', code: 'ENOTDIR'});
  });

  it.skipIf(isRoot)('says when permission is denied (skipped as root: root bypasses the mode bits)', async () => {
    chmodSync(dir, 0o500);
    for (const overwrite of [false, true]) {
      const result = await writeConfigFile(join(dir, 'laptop.conf'), CONF, {overwrite});
      expect(result).toMatchObject({ok: false, reason: 'error', code: 'EACCES'});
      if (!result.ok) expect(result.message).toMatch(/^Permission denied: cannot write /);
    }
  });

  it('refuses an empty path', async () => {
    expect(await writeConfigFile('  ', CONF, {overwrite: false})).toMatchObject({ok: false, reason: 'error', message: 'Give a file name'});
  });

  it('expands ~ and resolves relative paths', () => {
    expect(expandPath('~/x.conf')).toBe(join(homedir(), 'x.conf'));
    expect(expandPath('./x.conf')).toBe(join(process.cwd(), 'x.conf'));
  });
});

describe('defaultConfigFileName', () => {
  it.each([
    ['laptop', './laptop.conf'],
    ['brave-otter', './brave-otter.conf'],
    ['wg0_phone.v2', './wg0_phone.v2.conf'],
    ["Ann's phone", './Ann_s_phone.conf'],
    ['../../etc/passwd', './_._.._etc_passw.conf'],
    ['a/b\\c:d*e?f"g<h>i|j', './a_b_c_d_e_f_g_h.conf'],
    // wg-quick's interface name: at most 15 characters.
    ['newhire-laptop-2026', './newhire-laptop-.conf'],
    ['tab\there', './tab_here.conf'],
    ['.hidden', './_hidden.conf'],
    ['📱 phone', './__phone.conf'],
    ['', './device.conf'],
  ])('%j → %s', (name, expected) => {
    expect(defaultConfigFileName(name)).toBe(expected);
  });

  it('keeps the file name within 255 bytes', () => {
    const result = defaultConfigFileName('x'.repeat(255));
    expect(result.length - 2).toBeLessThanOrEqual(255);
  });
});
