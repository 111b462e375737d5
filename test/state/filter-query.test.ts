// The `/` filter's grammar (src/state/lists/filter-query.ts): tokens, units, errors, negation,
// narrowing, on rows made by hand (test/fixtures/filter-rows.ts); expectations are written out,
// never computed by the code under test. The screens' fields: filter-fields.test.ts.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {
  addressField,
  compileFilter,
  impliesQuery,
  parseAge,
  parseSize,
  quotedFilter,
  quoteFilterTerm,
  tokenizeFilter,
  type FilterFields,
} from '../../src/state/lists/filter-query.js';
import {deviceFilters} from '../../src/state/screens/devices/filters.js';
import {userFilters} from '../../src/state/screens/users/filters.js';
import {activityFilters} from '../../src/state/screens/activity/filters.js';
import {deviceRow, DEVICES, ids, NOW, RULE_FIELDS, USER_FIELDS} from '../fixtures/filter-rows.js';

describe('addressField', () => {
  interface Host {
    id: string;
    a: string | null;
    b: string | null;
  }
  // Without kept sort keys: the addresses are read from the text on each keystroke.
  const IP = addressField<Host>('ip', 'ip:10.0.0.0/8', [{text: (h) => h.a}, {text: (h) => h.b}]);
  const hosts = (value: string, list: Host[]) => {
    const test = IP.compile(':', value, NOW);
    if (typeof test !== 'function') throw new Error(test.error);
    return list.filter(test).map((h) => h.id);
  };

  it('reads addresses from their text when no keys are kept; junk is never an address', () => {
    const list: Host[] = [
      {id: 'v4', a: '10.1.2.3', b: null},
      {id: 'v6', a: null, b: 'FD00::1'},
      {id: 'mapped', a: '::ffff:10.1.2.3', b: null},
      {id: 'hex', a: '0123456789abcdef0123456789abcdef', b: null},
      {id: 'name', a: 'vpn.example.com', b: 'not:an:address'},
    ];
    expect(hosts('10.0.0.0/8', list)).toEqual(['v4']);
    expect(hosts('::/0', list)).toEqual(['v6', 'mapped']);
    expect(hosts('::ffff:0:0/96', list)).toEqual(['mapped']);
    expect(hosts('fd00::1', list)).toEqual(['v6']);
    expect(hosts('0.0.0.0/0', list)).toEqual(['v4']);
    expect(hosts('example', list)).toEqual(['name']);
  });

  it('an address is in a block exactly when its number is in the block’s range (IPv4, property)', () => {
    const quad = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
    fc.assert(
      fc.property(quad, quad, fc.integer({min: 0, max: 32}), (addr, net, prefix) => {
        const num = (q: number[]) => ((q[0]! * 256 + q[1]!) * 256 + q[2]!) * 256 + q[3]!;
        const size = 2 ** (32 - prefix);
        const first = Math.floor(num(net) / size) * size;
        const inside = num(addr) >= first && num(addr) < first + size;
        expect(hosts(`${net.join('.')}/${prefix}`, [{id: 'x', a: addr.join('.'), b: null}])).toEqual(inside ? ['x'] : []);
      }),
    );
  });

  it('and for IPv6 (property)', () => {
    const groups = fc.array(fc.nat(0xffff), {minLength: 8, maxLength: 8});
    fc.assert(
      fc.property(groups, groups, fc.integer({min: 0, max: 128}), (addr, net, prefix) => {
        const value = (g: number[]) => g.reduce((v, x) => (v << 16n) | BigInt(x), 0n);
        const host = BigInt(128 - prefix);
        const inside = value(addr) >> host === value(net) >> host;
        const text = (g: number[]) => g.map((x) => x.toString(16)).join(':');
        expect(hosts(`${text(net)}/${prefix}`, [{id: 'x', a: null, b: text(addr)}])).toEqual(inside ? ['x'] : []);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Errors

const DEVICE_FIELDS = deviceFilters();
const errorOf = (text: string, fields: FilterFields<never> = DEVICE_FIELDS as FilterFields<never>) => compileFilter(text, fields, NOW).error;

describe('errors', () => {
  it('a letters-only key the screen does not know names the keys it does', () => {
    expect(errorOf('foo:bar')).toBe('unknown filter key "foo" — devices know: state, owner, name, ip, key, rx, tx, rate, handshake, created, stale');
    // Every term left out is said: the first in full, the others counted.
    expect(errorOf('foo:bar rx>12parsecs state:asleep laptop')).toBe(
      'unknown filter key "foo" — devices know: state, owner, name, ip, key, rx, tx, rate, handshake, created, stale (and 2 more terms left out)',
    );
    expect(errorOf('foo:bar rx>12parsecs')).toMatch(/\(and 1 more term left out\)$/);
    expect(errorOf('Foo>1')).toBe('unknown filter key "Foo" — devices know: state, owner, name, ip, key, rx, tx, rate, handshake, created, stale');
    expect(errorOf('state:online', userFilters({configuration: null}) as FilterFields<never>)).toBe(
      'unknown filter key "state" — users know: email, role, status, signin, devices, online, rate, rules, seen',
    );
    expect(errorOf('x'.repeat(100) + ':1')).toBe(
      `unknown filter key "${'x'.repeat(39)}…" — devices know: state, owner, name, ip, key, rx, tx, rate, handshake, created, stale`,
    );
  });

  it('a value the field cannot read, or an operator it does not take', () => {
    expect(errorOf('rx>1XB')).toBe('rx>1XB: not a size (e.g. 500MB, 1.5GiB)');
    expect(errorOf('rate>fast')).toBe('rate>fast: not a rate (e.g. 500KB, 1.5MiB/s)');
    expect(errorOf('state:sleepy')).toBe('state:sleepy: state is online, idle or never');
    expect(errorOf('state:on')).toBe('state:on: state is online, idle or never');
    expect(errorOf('handshake:3d')).toBe('handshake:3d: handshake takes > or < (e.g. handshake>30d)');
    expect(errorOf('handshake>30')).toBe('handshake>30: not an age (e.g. 90s, 15m, 12h, 30d, 2w)');
    expect(errorOf('handshake>30y')).toBe('handshake>30y: not an age (e.g. 90s, 15m, 12h, 30d, 2w)');
    expect(errorOf('owner>3')).toBe('owner>3: owner takes : (e.g. owner:ann@example.com)');
    expect(errorOf('stale:yes')).toBe('stale:yes: stale takes no value (type stale alone)');
    expect(errorOf('state:')).toBe('state: needs a value (e.g. state:online)');
    expect(errorOf('handshake:')).toBe('handshake takes > or < (e.g. handshake>30d)');
    expect(errorOf('devices>x', USER_FIELDS as FilterFields<never>)).toBe('devices>x: not a count (e.g. devices>3)');
    expect(errorOf('devices:1.5', USER_FIELDS as FilterFields<never>)).toBe('devices:1.5: not a count (e.g. devices>3)');
    expect(errorOf('status:on', USER_FIELDS as FilterFields<never>)).toBe('status:on: status is enabled, disabled or expired');
    expect(errorOf('port:https', RULE_FIELDS as FilterFields<never>)).toBe('port:https: port is a port number, none, tcp or udp');
    expect(errorOf('port:65536', RULE_FIELDS as FilterFields<never>)).toBe('port:65536: port is a port number, none, tcp or udp');
    expect(errorOf('dest:10.2.x', RULE_FIELDS as FilterFields<never>)).toBe('dest:10.2.x: not an address or CIDR (e.g. dest:10.2.3.4, dest:10.0.0.0/8)');
    expect(errorOf('by:them', activityFilters() as FilterFields<never>)).toBe('by:them: by is you or other');
  });

  it('leaves the bad terms out and keeps the others; the first error is said, the rest counted', () => {
    const q = compileFilter('state:online foo:bar laptop rx>1XB', DEVICE_FIELDS, NOW);
    expect(q.error).toBe(
      'unknown filter key "foo" — devices know: state, owner, name, ip, key, rx, tx, rate, handshake, created, stale (and 1 more term left out)',
    );
    expect(q.predicates).toHaveLength(1);
    expect(q.texts.map((t) => t.needle)).toEqual(['laptop']);
    expect(DEVICES.filter((r) => q.predicates[0]!.test(r)).map((r) => r.id)).toEqual(['a', 'e', 'f']);
    expect(compileFilter('state:online', DEVICE_FIELDS, NOW).error).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Plain text

describe('plain terms', () => {
  const plain = (text: string) => {
    const q = compileFilter(text, DEVICE_FIELDS, NOW);
    expect(q.error, text).toBeNull();
    expect(q.predicates, text).toEqual([]);
    return q.texts.map((t) => `${t.negate ? '!' : ''}${t.needle}`);
  };

  it('a key that is not letters only is text: addresses, ports, emails', () => {
    expect(plain('fd00::3:2:2')).toEqual(['fd00::3:2:2']);
    expect(plain('10.0.0.1:53')).toEqual(['10.0.0.1:53']);
    expect(plain('ann@example.com')).toEqual(['ann@example.com']);
    expect(plain('a1:b')).toEqual(['a1:b']);
    expect(plain('>5')).toEqual(['>5']);
    expect(plain(':x')).toEqual([':x']);
    expect(plain('my-host:22')).toEqual(['my-host:22']);
  });

  it('quotes make one plain term, never a field or a flag; words are lower case; ! negates', () => {
    expect(plain('"state:online"')).toEqual(['state:online']);
    expect(plain('"stale"')).toEqual(['stale']);
    expect(plain('"My Laptop"  Phone')).toEqual(['my laptop', 'phone']);
    expect(plain('!laptop !"a b"')).toEqual(['!laptop', '!a b']);
    expect(plain('"unclosed quote')).toEqual(['unclosed quote']);
    expect(plain('"" ! !"" x')).toEqual(['x']);
    expect(plain('!!x')).toEqual(['!!x']);
  });

  it('a field value may be quoted: name:"my laptop"', () => {
    const rows = [
      deviceRow('m', {name: 'My Laptop', owner: 'x@y', ipv4: null, ipv6: null, remote: null, key: 'k'}, {handshake: null, created: 0, rx: null, tx: null}),
    ];
    expect(ids([...DEVICES, ...rows], DEVICE_FIELDS, 'name:"my laptop"', (r) => r.id)).toEqual(['m']);
  });

  it('without a field table every term is text', () => {
    const q = compileFilter('state:online stale', null, NOW);
    expect(q.texts.map((t) => t.needle)).toEqual(['state:online', 'stale']);
    expect(q.error).toBeNull();
    expect(q.readsFields).toBe(false);
  });

  it('the key is the set of terms: order and repeats do not matter, negation and kind do', () => {
    const key = (text: string) => compileFilter(text, DEVICE_FIELDS, NOW).key;
    expect(key('lap state:online')).toBe(key('state:online  LAP lap'));
    expect(key('lap')).not.toBe(key('!lap'));
    expect(key('stale')).not.toBe(key('"stale"'));
    expect(key('foo:bar')).toBe('');
    expect(compileFilter('foo:bar lap', DEVICE_FIELDS, NOW).readsFields).toBe(true);
    expect(compileFilter('lap', DEVICE_FIELDS, NOW).readsFields).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Units

describe('parseSize and parseAge', () => {
  it('sizes: 1024-based B KiB MiB GiB TiB, 1000-based KB MB GB TB, a bare number is bytes', () => {
    expect(parseSize('0')).toBe(0);
    expect(parseSize('2048')).toBe(2048);
    expect(parseSize('12B')).toBe(12);
    expect(parseSize('1KiB')).toBe(1024);
    expect(parseSize('1kib')).toBe(1024);
    expect(parseSize('2MiB')).toBe(2 * 1048576);
    expect(parseSize('1.5GiB')).toBe(1610612736);
    expect(parseSize('1TiB')).toBe(1099511627776);
    expect(parseSize('1KB')).toBe(1000);
    expect(parseSize('500MB')).toBe(500_000_000);
    expect(parseSize('2gb')).toBe(2_000_000_000);
    expect(parseSize('1TB')).toBe(1_000_000_000_000);
    expect(parseSize('.5KiB')).toBe(512);
    expect(parseSize('3.KB')).toBe(3000);
    for (const bad of ['', 'GiB', '1XB', '1 GiB', '-1', '1e3', '1,5GiB', '1.2.3', '1K', '1M', '1G', 'Infinity', '1GiBs'])
      expect(parseSize(bad), bad).toBeNull();
  });

  it('ages: s m h d w, a unit required', () => {
    expect(parseAge('90s')).toBe(90_000);
    expect(parseAge('15m')).toBe(900_000);
    expect(parseAge('12h')).toBe(43_200_000);
    expect(parseAge('30d')).toBe(2_592_000_000);
    expect(parseAge('2w')).toBe(1_209_600_000);
    expect(parseAge('1.5H')).toBe(5_400_000);
    expect(parseAge('30D')).toBe(2_592_000_000);
    for (const bad of ['', '30', 'd', '30y', '30 d', '-1d', '1mo', '30ds']) expect(parseAge(bad), bad).toBeNull();
  });

  it('any amount in any unit, in any case, is the amount times the unit', () => {
    const sizeUnits: Array<[string, number]> = [
      ['', 1],
      ['b', 1],
      ['kib', 1024],
      ['mib', 1048576],
      ['gib', 1073741824],
      ['tib', 1099511627776],
      ['kb', 1e3],
      ['mb', 1e6],
      ['gb', 1e9],
      ['tb', 1e12],
    ];
    const ageUnits: Array<[string, number]> = [
      ['s', 1000],
      ['m', 60_000],
      ['h', 3_600_000],
      ['d', 86_400_000],
      ['w', 604_800_000],
    ];
    const anyCase = (unit: string, upper: boolean[]) => [...unit].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
    fc.assert(
      fc.property(fc.nat(100_000), fc.constantFrom(...sizeUnits), fc.array(fc.boolean(), {minLength: 3, maxLength: 3}), (n, [unit, factor], upper) => {
        expect(parseSize(`${n}${anyCase(unit, upper)}`)).toBe(n * factor);
      }),
    );
    fc.assert(
      fc.property(fc.nat(100_000), fc.constantFrom(...ageUnits), fc.boolean(), (n, [unit, factor], upper) => {
        expect(parseAge(`${n}${upper ? unit.toUpperCase() : unit}`)).toBe(n * factor);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Tokens and narrowing, for any input

const WORD_CHARS = fc.constantFrom(...'abcdefgxyz019:<>.-@/!'.split(''));
const word = fc.array(WORD_CHARS, {minLength: 1, maxLength: 8}).map((cs) => cs.join(''));
const spaces = fc.array(fc.constantFrom(' ', '\t', '  ', '\n'), {minLength: 1, maxLength: 3}).map((s) => s.join(''));

describe('tokenizeFilter', () => {
  it('splits at any run of spaces, wherever they are', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word, spaces), {maxLength: 6}), fc.boolean(), (parts, lead) => {
        const words = parts.map(([w]) => w).filter((w) => !w.startsWith('!'));
        const text = (lead ? ' ' : '') + words.map((w, i) => `${w}${parts[i]![1]}`).join('');
        expect(tokenizeFilter(text).map((t) => t.text)).toEqual(words);
        expect(tokenizeFilter(text).every((t) => !t.negate && !t.quoted)).toBe(true);
      }),
    );
  });

  it('a quoted text is one term with its spaces, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.string({maxLength: 20}).filter((s) => !s.includes('"')),
        fc.boolean(),
        (s, neg) => {
          const tokens = tokenizeFilter(`${neg ? '!' : ''}"${s}"`);
          expect(tokens).toEqual(s === '' ? [] : [{text: s, negate: neg, quoted: true, quoteAt: 0}]);
        },
      ),
    );
  });

  it('inside quotes "" is one quote: "ann\'s ""work"" pc"', () => {
    expect(tokenizeFilter('"ann\'s ""work"" pc" x')).toEqual([
      {text: 'ann\'s "work" pc', negate: false, quoted: true, quoteAt: 0},
      {text: 'x', negate: false, quoted: false, quoteAt: -1},
    ]);
    expect(tokenizeFilter('name:"a""b"')).toEqual([{text: 'name:a"b', negate: false, quoted: false, quoteAt: 5}]);
    // Empty quotes are still an empty term, dropped.
    expect(tokenizeFilter('"" a')).toEqual([{text: 'a', negate: false, quoted: false, quoteAt: -1}]);
  });

  it('quoting any text, quotes, spaces and ! included, reads back as that text, one plain term (property)', () => {
    const text = fc.oneof(fc.string({maxLength: 30}), fc.string({unit: fc.constantFrom('"', ' ', '!', 'a', ':', '\t', 'é'), maxLength: 30}));
    fc.assert(
      fc.property(text, fc.array(word, {maxLength: 3}), (name, around) => {
        expect(tokenizeFilter(quoteFilterTerm(name))).toEqual(name === '' ? [] : [{text: name, negate: false, quoted: true, quoteAt: 0}]);
        // Among other terms, it is still one term of its own.
        const words = around.filter((w) => !w.startsWith('!'));
        const tokens = tokenizeFilter([...words, quoteFilterTerm(name), ...words].join(' '));
        expect(tokens.map((t) => t.text)).toEqual(name === '' ? [...words, ...words] : [...words, name, ...words]);
        // And it is plain text for every screen, never a field or a flag.
        if (name !== '')
          expect(compileFilter(quoteFilterTerm(name), DEVICE_FIELDS, NOW).texts).toEqual([
            {kind: 'text', needle: name.toLowerCase(), negate: false, canon: `"${name.toLowerCase()}`},
          ]);
      }),
    );
  });

  it('a filter is quoted once in messages: in quotes, or as typed when it holds quotes', () => {
    expect(quotedFilter('lap')).toBe('"lap"');
    expect(quotedFilter('"rosa-laptop"')).toBe('"rosa-laptop"');
    expect(quotedFilter('a "b c"')).toBe('a "b c"');
  });

  it('never throws, and every term is non-empty text of the input', () => {
    fc.assert(
      fc.property(fc.string({maxLength: 40}), (s) => {
        for (const t of tokenizeFilter(s)) {
          expect(t.text.length).toBeGreaterThan(0);
          // A quote in a term is a doubled one of the input (`""` inside quotes).
          if (t.text.includes('"')) expect(s).toContain('""');
        }
        for (const fields of [DEVICE_FIELDS, USER_FIELDS, RULE_FIELDS, activityFilters()] as FilterFields<never>[]) {
          const q = compileFilter(s, fields, NOW);
          expect(q.error === null || q.error.length < 300).toBe(true);
        }
      }),
    );
  });
});

describe('impliesQuery', () => {
  // Text queries over texts, the expectation by plain substring tests.
  const needle = fc.array(fc.constantFrom('a', 'b', 'c'), {minLength: 1, maxLength: 3}).map((cs) => cs.join(''));
  const query = fc.array(fc.tuple(fc.boolean(), needle), {minLength: 1, maxLength: 3}).map((ts) => ts.map(([neg, n]) => `${neg ? '!' : ''}${n}`).join(' '));
  const passes = (text: string, hay: string) => text.split(' ').every((t) => (t.startsWith('!') ? !hay.includes(t.slice(1)) : hay.includes(t)));

  it('holds only when every text matching the new query matches the earlier one', () => {
    fc.assert(
      fc.property(query, query, fc.array(needle, {minLength: 1, maxLength: 30}), (newer, earlier, texts) => {
        if (!impliesQuery(compileFilter(newer, null, NOW), compileFilter(earlier, null, NOW))) return;
        for (const hay of texts) if (passes(newer, hay)) expect(passes(earlier, hay), `${newer} ⇒ ${earlier} on ${hay}`).toBe(true);
      }),
    );
  });

  it('narrows by containment, and never from a shorter text that is not implied', () => {
    const implies = (a: string, b: string) => impliesQuery(compileFilter(a, DEVICE_FIELDS, NOW), compileFilter(b, DEVICE_FIELDS, NOW));
    expect(implies('devi', 'dev')).toBe(true);
    expect(implies('a', 'lap')).toBe(false);
    expect(implies('lap', 'a')).toBe(true);
    expect(implies('!dev', '!devi')).toBe(true);
    expect(implies('!devi', '!dev')).toBe(false);
    expect(implies('state:idle handshake>30d', 'state:idle')).toBe(true);
    expect(implies('state:idle', 'state:idle handshake>30d')).toBe(false);
    expect(implies('state:online', 'state:idle')).toBe(false);
    expect(implies('lap state:online', 'la')).toBe(true);
    expect(implies('rx>2GiB', 'rx>1GiB')).toBe(false);
    expect(implies('stale', '"stale"')).toBe(false);
  });
});
