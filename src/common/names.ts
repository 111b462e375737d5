// Device names the way Firezone 0.7.36 generates them (docs/firezone-0.7.36.md, "Device names"): "<adjective>-<noun>",
// and when that is longer than 15 characters, the first 11 characters followed by the 4 upper-case
// hex digits of `:erlang.phash2(name, 65536)`, so a name always fits a 15-character interface name.
// Shared by the console (pre-filled form value) and the sandbox (server-side default).
//
// The word lists are our own, in the same spirit as upstream's (plain English adjectives and nouns,
// a few hyphenated), not a copy of them. The hash, however, is Erlang's real phash2 for binaries,
// so a given long name shortens exactly as 0.7.36 would shorten it.
import {countGraphemes, firstGraphemes} from './graphemes.js';

// prettier-ignore
const ADJECTIVES: readonly string[] = [
  'able', 'agile', 'amber', 'ancient', 'arctic', 'autumn', 'azure', 'bold', 'brave', 'breezy', 'bright', 'brisk',
  'bronze', 'busy', 'calm', 'candid', 'careful', 'cheerful', 'chilly', 'clever', 'cloudy', 'cobalt', 'cosmic',
  'crimson', 'crisp', 'curious', 'daring', 'dapper', 'dazzling', 'deep', 'eager', 'early', 'easy-going', 'electric',
  'elegant', 'emerald', 'epic', 'fancy', 'fast', 'fearless', 'festive', 'fierce', 'fluffy', 'friendly', 'frosty',
  'gentle', 'giant', 'gifted', 'glad', 'gleaming', 'golden', 'graceful', 'grand', 'happy', 'hardy', 'hidden',
  'honest', 'humble', 'icy', 'idle', 'indigo', 'jolly', 'jovial', 'keen', 'kind', 'lively', 'loyal', 'lucky',
  'lunar', 'magic', 'majestic', 'mellow', 'merry', 'mighty', 'misty', 'modern', 'modest', 'nimble', 'noble',
  'nocturnal', 'odd', 'old-fashioned', 'orange', 'patient', 'peaceful', 'plucky', 'polished', 'polite', 'proud',
  'purple', 'quick', 'quiet', 'quirky', 'radiant', 'rapid', 'rare', 'ready', 'robust', 'rosy', 'rustic', 'sandy',
  'scarlet', 'serene', 'sharp', 'shiny', 'silent', 'silver', 'simple', 'sleek', 'sleepy', 'smart', 'snowy',
  'solar', 'sparkling', 'speedy', 'spicy', 'spirited', 'splendid', 'steady', 'stellar', 'stormy', 'sturdy',
  'sunny', 'swift', 'tame', 'tidy', 'tiny', 'tranquil', 'trusty', 'upbeat', 'valiant', 'velvet', 'vibrant',
  'vivid', 'warm', 'well-groomed', 'whimsical', 'wild', 'windy', 'wise', 'witty', 'wooden', 'young', 'zealous',
  'zesty',
];

// prettier-ignore
const NOUNS: readonly string[] = [
  'anchor', 'apple', 'arrow', 'aurora', 'badger', 'basket', 'beacon', 'bear', 'bison', 'blossom', 'breeze',
  'bridge', 'brook', 'cabin', 'canyon', 'castle', 'cedar', 'cherry', 'cliff', 'cloud', 'comet', 'compass',
  'coral', 'cricket', 'crystal', 'dawn', 'delta', 'desert', 'dolphin', 'dragon', 'eagle', 'ember', 'falcon',
  'feather', 'fern', 'field', 'firefly', 'forest', 'fox', 'galaxy', 'garden', 'glacier', 'harbor', 'hawk',
  'heron', 'hill', 'horizon', 'island', 'jaguar', 'journey', 'kettle', 'kite', 'lagoon', 'lake', 'lantern',
  'leopard', 'lighthouse', 'lily', 'lion', 'maple', 'meadow', 'meteor', 'mountain', 'nebula', 'oak', 'ocean',
  'orchid', 'otter', 'owl', 'panda', 'panther', 'parrot', 'pebble', 'pelican', 'penguin', 'pine', 'planet',
  'pond', 'prairie', 'quartz', 'rabbit', 'raven', 'reef', 'river', 'robin', 'rocket', 'saddle', 'salmon',
  'sapphire', 'savanna', 'shadow', 'shore', 'sparrow', 'spruce', 'star', 'stone', 'storm', 'summit', 'sun',
  'swan', 'thunder', 'tiger', 'trail', 'tulip', 'tundra', 'valley', 'violet', 'volcano', 'walrus', 'wave',
  'willow', 'wind', 'wolf', 'harvest', 'workshop', 'zebra', 'zephyr',
];

const HCONST = 0x9e3779b9;

// Bob Jenkins' lookup2 mix, as in erts/emulator/beam/utils.c (MIX macro), on uint32 values.
function mix(state: Uint32Array): void {
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  a = (a - b - c) >>> 0;
  a = (a ^ (c >>> 13)) >>> 0;
  b = (b - c - a) >>> 0;
  b = (b ^ (a << 8)) >>> 0;
  c = (c - a - b) >>> 0;
  c = (c ^ (b >>> 13)) >>> 0;
  a = (a - b - c) >>> 0;
  a = (a ^ (c >>> 12)) >>> 0;
  b = (b - c - a) >>> 0;
  b = (b ^ (a << 16)) >>> 0;
  c = (c - a - b) >>> 0;
  c = (c ^ (b >>> 5)) >>> 0;
  a = (a - b - c) >>> 0;
  a = (a ^ (c >>> 3)) >>> 0;
  b = (b - c - a) >>> 0;
  b = (b ^ (a << 10)) >>> 0;
  c = (c - a - b) >>> 0;
  c = (c ^ (b >>> 15)) >>> 0;
  state[0] = a;
  state[1] = b;
  state[2] = c;
}

function word(k: Uint8Array, i: number): number {
  return (k[i]! | (k[i + 1]! << 8) | (k[i + 2]! << 16) | (k[i + 3]! << 24)) >>> 0;
}

/** Erlang's `block_hash` (lookup2 over the bytes, seeded with `initval`). */
function blockHash(k: Uint8Array, initval: number): number {
  const state = new Uint32Array([HCONST, HCONST, initval]);
  let i = 0;
  let len = k.length;
  while (len >= 12) {
    state[0] = state[0]! + word(k, i);
    state[1] = state[1]! + word(k, i + 4);
    state[2] = state[2]! + word(k, i + 8);
    mix(state);
    i += 12;
    len -= 12;
  }
  state[2] = state[2]! + k.length;
  // The C switch falls through from the highest remaining byte down; the first byte of c is
  // reserved for the length, hence the shifted c additions.
  if (len >= 11) state[2] = state[2]! + (k[i + 10]! << 24);
  if (len >= 10) state[2] = state[2]! + (k[i + 9]! << 16);
  if (len >= 9) state[2] = state[2]! + (k[i + 8]! << 8);
  if (len >= 8) state[1] = state[1]! + (k[i + 7]! << 24);
  if (len >= 7) state[1] = state[1]! + (k[i + 6]! << 16);
  if (len >= 6) state[1] = state[1]! + (k[i + 5]! << 8);
  if (len >= 5) state[1] = state[1]! + k[i + 4]!;
  if (len >= 4) state[0] = state[0]! + (k[i + 3]! << 24);
  if (len >= 3) state[0] = state[0]! + (k[i + 2]! << 16);
  if (len >= 2) state[0] = state[0]! + (k[i + 1]! << 8);
  if (len >= 1) state[0] = state[0]! + k[i]!;
  mix(state);
  return state[2]!;
}

/**
 * `:erlang.phash2(Binary, Range)` for a byte-aligned binary (make_hash2's BINARY_DEF case:
 * block_hash seeded with HCONST_13, the hash of the empty accumulator 0).
 */
export function phash2Binary(bytes: Uint8Array, range = 2 ** 32): number {
  const hconst13 = Math.imul(13, HCONST) >>> 0;
  const hash = bytes.length === 0 ? hconst13 : blockHash(bytes, hconst13);
  return range >= 2 ** 32 ? hash : hash % range;
}

/**
 * 0.7.36's `Devices.generate_name/1` shortening rule: names longer than 15 characters become their
 * first 11 characters plus `phash2(name, 65536)` as 4 upper-case hex digits.
 */
export function shortenDeviceName(name: string): string {
  if (countGraphemes(name, 15) <= 15) return name;
  const hash = phash2Binary(new TextEncoder().encode(name), 65536);
  return firstGraphemes(name, 11) + hash.toString(16).toUpperCase().padStart(4, '0');
}

/** A fresh "<adjective>-<noun>" device name (shortened like 0.7.36), drawn with `random` (values in [0, 1)). */
export function generateDeviceName(random: () => number): string {
  const pick = (list: readonly string[]): string => list[Math.min(list.length - 1, Math.floor(random() * list.length))]!;
  return shortenDeviceName(`${pick(ADJECTIVES)}-${pick(NOUNS)}`);
}

export const NAME_WORDS = {adjectives: ADJECTIVES, nouns: NOUNS};
