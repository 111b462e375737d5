// JSON in and out the way 0.7.36's stack (Jason 1.4) does it.
//
// Parsing keeps the integer/float distinction JSON.parse loses: Ecto rejects `1400.0` for an integer
// field ("is invalid") while accepting `1400`, so floats come back as JsonFloat. Objects are
// null-prototype so a `__proto__` key is just a key.
//
// Encoding sorts object keys ascending at every depth: Elixir maps of up to 32 keys are stored
// sorted and Jason emits them in that order (docs/firezone-0.7.36.md, "Key order and JSON shapes"). Strings are escaped like Jason's
// default (`/` and non-ASCII pass through), which JSON.stringify already does.

export class JsonFloat {
  constructor(readonly value: number) {}
}

/** A param that is neither scalar, list nor map (a multipart file upload): every cast rejects it. */
export class OpaqueValue {
  constructor(readonly description: string) {}
}

export type Params = Record<string, unknown>;

export function isParamsMap(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonFloat) && !(value instanceof OpaqueValue);
}

export function newParams(): Params {
  return Object.create(null) as Params;
}

export class JsonSyntaxError extends Error {}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Strict RFC 8259 parser (whitespace allowed around the value, nothing else). */
export function parseJson(text: string): unknown {
  let pos = 0;
  const fail = (): never => {
    throw new JsonSyntaxError(`unexpected byte at position ${pos}`);
  };
  const skip = (): void => {
    while (pos < text.length && WS.has(text.charCodeAt(pos))) pos++;
  };
  const parseString = (): string => {
    // pos is on the opening quote
    pos++;
    let out = '';
    let start = pos;
    for (;;) {
      if (pos >= text.length) fail();
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        out += text.slice(start, pos);
        pos++;
        return out;
      }
      if (c < 0x20) fail();
      if (c !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(start, pos);
      const e = text[pos + 1];
      pos += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = text.slice(pos, pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail();
          const unit = parseInt(hex, 16);
          pos += 4;
          if (unit >= 0xd800 && unit <= 0xdbff) {
            // Jason only accepts a high surrogate followed by an escaped low surrogate.
            const low = text.slice(pos, pos + 6);
            if (!/^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(low)) fail();
            out += String.fromCharCode(unit, parseInt(low.slice(2), 16));
            pos += 6;
          } else if (unit >= 0xdc00 && unit <= 0xdfff) {
            fail();
          } else {
            out += String.fromCharCode(unit);
          }
          break;
        }
        default:
          pos -= 1;
          fail();
      }
      start = pos;
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const parseValue = (depth: number): unknown => {
    // Jason has no depth limit, but an 8 MB body of brackets would exhaust the JS stack here;
    // either way such a request ends in the empty 500 (missing wrapper or parse error).
    if (depth > 2_000) fail();
    skip();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const obj = newParams();
      skip();
      if (text[pos] === '}') {
        pos++;
        return obj;
      }
      for (;;) {
        skip();
        if (text[pos] !== '"') fail();
        const key = parseString();
        skip();
        if (text[pos] !== ':') fail();
        pos++;
        obj[key] = parseValue(depth + 1);
        skip();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          return obj;
        }
        fail();
      }
    }
    if (c === '[') {
      pos++;
      const arr: unknown[] = [];
      skip();
      if (text[pos] === ']') {
        pos++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1));
        skip();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          return arr;
        }
        fail();
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) return fail();
    pos += m[0].length;
    const n = Number(m[0]);
    return m[1] !== undefined || m[2] !== undefined ? new JsonFloat(n) : n;
  };
  const value = parseValue(0);
  skip();
  if (pos !== text.length) fail();
  return value;
}

/** Compare by Unicode code point, which is UTF-8 byte order (Elixir sorts map keys by bytes). */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800..U+DFFF) encodes a code point above U+FFFF, which sorts after every BMP
    // character even though its code unit is smaller than U+E000..U+FFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

function encodeInto(value: unknown, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
  } else if (typeof value === 'string') {
    out.push(JSON.stringify(value));
  } else if (typeof value === 'number') {
    out.push(Number.isFinite(value) ? String(value) : 'null');
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false');
  } else if (typeof value === 'bigint') {
    out.push(value.toString());
  } else if (value instanceof JsonFloat) {
    out.push(JSON.stringify(value.value));
  } else if (value instanceof OpaqueValue) {
    out.push('null');
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      encodeInto(value[i], out);
    }
    out.push(']');
  } else if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort(compareKeys);
    out.push('{');
    let first = true;
    for (const key of keys) {
      if (record[key] === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      encodeInto(record[key], out);
    }
    out.push('}');
  } else {
    out.push('null');
  }
}

/** Serialises with object keys sorted ascending at every depth; `undefined` members are omitted. */
export function encodeJson(value: unknown): string {
  const out: string[] = [];
  encodeInto(value, out);
  return out.join('');
}
