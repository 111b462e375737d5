// WireGuard key material with node:crypto only (no native addon, no tweetnacl): X25519 is
// the curve WireGuard uses, and OpenSSL's implementation is what `wg` and Firezone's
// browser code (tweetnacl box.keyPair) compute too (docs/terminal-notes.md, "WireGuard keys
// with node:crypto"; docs/firezone-0.7.36.md, "Device creation in the web UI").
//
// Keys live only in memory: nothing here writes, logs or caches them. The caller decides
// when a private key reaches a file (file.ts writes 0600) or the clipboard (osc52.ts).
import {createPrivateKey, createPublicKey, randomBytes} from 'node:crypto';

/** Length of a raw key (private, public or preshared) in bytes. */
export const KEY_BYTES = 32;
/** Length of its standard base64 form, as `wg` prints it (with one `=` of padding). */
export const KEY_BASE64_LENGTH = 44;

// 32 bytes = 42 full base64 characters + one carrying the last 4 bits + "=". That 43rd
// character must have its two low bits zero (A, E, I, … , 8) or the string is not the
// canonical encoding of 32 bytes; `wg` (encoding.c key_from_base64) rejects such strings, so
// accepting them here would produce configs wg-quick refuses.
const KEY_PATTERN = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

// The fixed DER prefix of a PKCS#8 X25519 private key (RFC 8410): SEQUENCE { version 0,
// AlgorithmIdentifier { 1.3.101.110 }, OCTET STRING { OCTET STRING (32 bytes) } }. Node
// cannot import a raw X25519 scalar directly, so the 32 bytes are wrapped in it.
const PKCS8_X25519_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');

export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

/** True for a WireGuard key as `wg` accepts it: canonical standard base64 of 32 bytes. */
export function isValidKey(s: string): boolean {
  return typeof s === 'string' && KEY_PATTERN.test(s);
}

/** Thrown for strings that are not WireGuard keys; the message says what is wrong. */
export class InvalidKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidKeyError';
  }
}

function describeInvalidKey(s: string, what: string): string {
  const expected = `expected ${KEY_BASE64_LENGTH} characters of standard base64 encoding ${KEY_BYTES} bytes, like \`wg genkey\` prints`;
  if (typeof s !== 'string') return `Invalid ${what}: ${expected}, got ${typeof s}`;
  if (s.trim() !== s && s.trim().length === KEY_BASE64_LENGTH) {
    return `Invalid ${what}: it has leading or trailing whitespace; ${expected}`;
  }
  if (s.length !== KEY_BASE64_LENGTH) return `Invalid ${what}: ${expected}, got ${s.length} characters`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s)) {
    return `Invalid ${what}: ${expected}; it contains characters outside A–Z a–z 0–9 + / (and "=" padding)`;
  }
  const bytes = Buffer.from(s, 'base64').length;
  if (bytes !== KEY_BYTES) return `Invalid ${what}: ${expected}; it decodes to ${bytes} bytes`;
  return `Invalid ${what}: ${expected}; the last data character encodes bits beyond the 32 bytes (not a canonical encoding)`;
}

/**
 * Clamps an X25519 secret the way `wg genkey` does (curve25519_clamp_secret): clear the low
 * three bits, clear bit 255, set bit 254. X25519 clamps during scalar multiplication anyway,
 * so the public key is unchanged; clamping only makes the bytes identical to wg's output.
 * (node:crypto's X25519 keys come out clamped already, so this is only observable on other bytes.)
 */
export function clamp(secret: Buffer): Buffer {
  const out = Buffer.from(secret);
  out[0] = out[0]! & 248;
  out[31] = (out[31]! & 127) | 64;
  return out;
}

// The DER prefix of an SPKI X25519 public key (RFC 8410): the 32 raw bytes follow it.
const SPKI_X25519_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

/**
 * A fresh keypair, equivalent to `wg genkey | tee private | wg pubkey`: 32 random bytes, clamped
 * as wg clamps them, and the public key derived from them.
 *
 * Not generateKeyPairSync + a JWK export: on Node 20 a garbage collection inside the export can
 * finalize an earlier key-generation job that takes the same lock, and the process hangs for good
 * (seen in the test suite: main thread in ~KeyGenJob under ExportJWKEdKey). The console would
 * freeze at "new device"; random bytes and a DER export never meet that lock.
 */
export function generateKeyPair(): KeyPair {
  const privateKeyB64 = clamp(randomBytes(KEY_BYTES)).toString('base64');
  return {privateKey: privateKeyB64, publicKey: publicKeyFromPrivate(privateKeyB64)};
}

/** The public key for a base64 private key, like `wg pubkey`. Throws InvalidKeyError. */
export function publicKeyFromPrivate(privateKey: string): string {
  if (!isValidKey(privateKey)) throw new InvalidKeyError(describeInvalidKey(privateKey, 'private key'));
  const der = Buffer.concat([PKCS8_X25519_PREFIX, Buffer.from(privateKey, 'base64')]);
  const key = createPrivateKey({key: der, format: 'der', type: 'pkcs8'});
  const spki = createPublicKey(key).export({format: 'der', type: 'spki'});
  // A different length or prefix would mean a Node/OpenSSL regression, which must not turn into a wrong key silently.
  if (spki.length !== SPKI_X25519_PREFIX.length + KEY_BYTES || !spki.subarray(0, SPKI_X25519_PREFIX.length).equals(SPKI_X25519_PREFIX)) {
    throw new Error(`node:crypto returned an X25519 public key of an unexpected form (${spki.length} bytes)`);
  }
  return spki.subarray(SPKI_X25519_PREFIX.length).toString('base64');
}

/** A preshared key like `wg genpsk`: 32 random bytes, base64, not clamped. */
export function generatePresharedKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}
