import {generateKeyPairSync} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {clamp, generateKeyPair, generatePresharedKey, InvalidKeyError, isValidKey, publicKeyFromPrivate} from '../../src/wireguard/keys.js';

const hexToB64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('generateKeyPair', () => {
  it('gives 44-character standard base64 keys of 32 bytes', () => {
    for (let i = 0; i < 50; i++) {
      const {privateKey, publicKey} = generateKeyPair();
      for (const key of [privateKey, publicKey]) {
        expect(key).toHaveLength(44);
        expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
        expect(Buffer.from(key, 'base64')).toHaveLength(32);
        expect(isValidKey(key)).toBe(true);
      }
    }
  });

  it('derives the public key from the private key', () => {
    for (let i = 0; i < 50; i++) {
      const pair = generateKeyPair();
      expect(publicKeyFromPrivate(pair.privateKey)).toBe(pair.publicKey);
    }
  });

  it('clamp() clears the low 3 bits and bit 255 and sets bit 254, like curve25519_clamp_secret, and touches nothing else', () => {
    const ones = Buffer.alloc(32, 0xff);
    expect([...clamp(ones)]).toEqual([0xf8, ...Array(30).fill(0xff), 0x7f]);
    const zeros = Buffer.alloc(32, 0);
    expect([...clamp(zeros)]).toEqual([0, ...Array(30).fill(0), 0x40]);
    expect(zeros.every((b) => b === 0)).toBe(true); // the input is not changed
  });

  it('hands out private keys in clamped form, as wg genkey prints them (node:crypto clamps too)', () => {
    for (let i = 0; i < 200; i++) {
      const raw = Buffer.from(generateKeyPair().privateKey, 'base64');
      expect(raw[0]! & 7).toBe(0);
      expect(raw[31]! & 128).toBe(0);
      expect(raw[31]! & 64).toBe(64);
    }
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({length: 100}, () => generateKeyPair().privateKey));
    expect(keys.size).toBe(100);
  });
});

describe('publicKeyFromPrivate', () => {
  it('matches the RFC 7748 §6.1 X25519 test vectors', () => {
    expect(publicKeyFromPrivate(hexToB64('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'))).toBe(
      hexToB64('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a'),
    );
    expect(publicKeyFromPrivate(hexToB64('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb'))).toBe(
      hexToB64('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f'),
    );
  });

  it('agrees with a keypair node:crypto generated itself', () => {
    // DER-encoded by the generation job (RFC 8410: the raw key is the last 32 bytes): a JWK export
    // of a generated key can hang Node 20 (src/wireguard/keys.ts).
    for (let i = 0; i < 20; i++) {
      const {privateKey, publicKey} = generateKeyPairSync('x25519', {
        publicKeyEncoding: {type: 'spki', format: 'der'},
        privateKeyEncoding: {type: 'pkcs8', format: 'der'},
      });
      expect(publicKeyFromPrivate(privateKey.subarray(16).toString('base64'))).toBe(publicKey.subarray(12).toString('base64'));
    }
  });

  it('gives an unclamped secret the same public key as its clamped form (X25519 clamps)', () => {
    const clamped = Buffer.from(generateKeyPair().privateKey, 'base64');
    const unclamped = Buffer.from(clamped);
    unclamped[0] = unclamped[0]! | 7;
    unclamped[31] = unclamped[31]! | 128;
    expect(publicKeyFromPrivate(unclamped.toString('base64'))).toBe(publicKeyFromPrivate(clamped.toString('base64')));
  });

  it.each([
    ['empty', '', /got 0 characters/],
    ['too short', 'abc=', /got 4 characters/],
    ['a 33-byte key', Buffer.alloc(33, 1).toString('base64'), /decodes to 33 bytes/],
    ['dashes (base64url alphabet)', `${'-'.repeat(42)}A=`, /characters outside/],
    ['underscores (base64url alphabet)', `${'_'.repeat(43)}=`, /characters outside/],
    ['surrounding whitespace', ` ${generateKeyPair().privateKey}\n`, /whitespace/],
    ['non-canonical last character', `${'A'.repeat(42)}B=`, /canonical/],
  ])('throws a clear InvalidKeyError for %s', (_label, input, message) => {
    expect(() => publicKeyFromPrivate(input)).toThrow(InvalidKeyError);
    expect(() => publicKeyFromPrivate(input)).toThrow(message);
    expect(() => publicKeyFromPrivate(input)).toThrow(/expected 44 characters of standard base64 encoding 32 bytes/);
  });
});

describe('generatePresharedKey', () => {
  it('is 32 random bytes in base64, like wg genpsk', () => {
    const a = generatePresharedKey();
    const b = generatePresharedKey();
    expect(isValidKey(a)).toBe(true);
    expect(Buffer.from(a, 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});

describe('isValidKey', () => {
  it('accepts canonical base64 of 32 bytes only', () => {
    expect(isValidKey(Buffer.alloc(32, 0xff).toString('base64'))).toBe(true);
    expect(isValidKey(Buffer.alloc(32).toString('base64'))).toBe(true);
    expect(isValidKey(Buffer.alloc(31).toString('base64'))).toBe(false);
    expect(isValidKey(`${'A'.repeat(42)}B=`)).toBe(false); // bits beyond 256
    expect(isValidKey(`${'A'.repeat(43)}=`.replace(/^A/, '_'))).toBe(false);
    expect(isValidKey(`${Buffer.alloc(32).toString('base64')} `)).toBe(false);
  });
});
