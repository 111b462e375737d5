// Cross-check against the reference implementation: wireguard-tools' `wg pubkey` / `wg genkey`.
// Skipped (visibly, with the reason in the test name) when `wg` is not installed; CI installs it.
import {execFileSync, spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {generateKeyPair, isValidKey, publicKeyFromPrivate} from '../../src/wireguard/keys.js';

const hasWg = spawnSync('wg', ['--version'], {encoding: 'utf8'}).status === 0;
const skipReason = hasWg ? '' : ' [SKIPPED: `wg` not on PATH — apt-get install wireguard-tools]';

function wg(args: string[], input?: string): string {
  return execFileSync('wg', args, {input, encoding: 'utf8'}).trim();
}

describe(`wireguard-tools cross-check${skipReason}`, () => {
  it.skipIf(!hasWg)('echo <PrivateKey> | wg pubkey equals our public key for 20 generated keys', () => {
    for (let i = 0; i < 20; i++) {
      const pair = generateKeyPair();
      expect(wg(['pubkey'], `${pair.privateKey}\n`)).toBe(pair.publicKey);
    }
  });

  it.skipIf(!hasWg)('publicKeyFromPrivate matches wg genkey | wg pubkey', () => {
    for (let i = 0; i < 10; i++) {
      const privateKey = wg(['genkey']);
      expect(isValidKey(privateKey)).toBe(true);
      expect(publicKeyFromPrivate(privateKey)).toBe(wg(['pubkey'], `${privateKey}\n`));
    }
  });

  it.skipIf(!hasWg)('wg pubkey rejects a non-canonical key exactly as isValidKey does', () => {
    // wg pubkey is the strictest parser at hand: it refuses non-canonical base64 as we do.
    const bad = `${'A'.repeat(42)}B=`;
    expect(isValidKey(bad)).toBe(false);
    expect(spawnSync('wg', ['pubkey'], {input: `${bad}\n`}).status).not.toBe(0);
  });
});
