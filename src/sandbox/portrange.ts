// FzHttp.Types.Int4Range as of 0.7.36: how a rule's `port_range` is cast
// (docs/firezone-0.7.36.md, "Rules: fields and port ranges").
// Lenient on purpose: "-80" is "80", "80abc" is "80", "80-90-100" is "80 - 90".

import {integerParse} from './inet.js';

const BAD_FORMAT = 'bad format';
const LOWER_ABOVE_UPPER = 'lower value cannot be higher than upper value';

type PortRangeCast =
  | {kind: 'ok'; value: string; lower: number; upper: number}
  | {kind: 'error'; message: string}
  /** No cast clause matches (a JSON number, boolean, map, list of the wrong size): FunctionClauseError. */
  | {kind: 'crash'; reason: string};

function fromBounds(lower: number, upper: number): PortRangeCast {
  if (lower === upper) return {kind: 'ok', value: String(lower), lower, upper};
  if (upper >= lower) return {kind: 'ok', value: `${lower} - ${upper}`, lower, upper};
  return {kind: 'error', message: LOWER_ABOVE_UPPER};
}

/** Elixir `String.split(s, "-", trim: true, parts: 2)`: empty pieces are skipped and do not count. */
function splitDashTwo(text: string): string[] {
  let i = 0;
  while (text[i] === '-') i++;
  if (i >= text.length) return [];
  const rest = text.slice(i);
  const dash = rest.indexOf('-');
  if (dash < 0) return [rest];
  const head = rest.slice(0, dash);
  const tail = rest.slice(dash + 1);
  return tail === '' ? [head] : [head, tail];
}

function parseRange(text: string): PortRangeCast {
  const parts = splitDashTwo(text.trim()).map((p) => integerParse(p.trim()));
  if (parts.length === 2 && parts[0] && parts[1]) return fromBounds(parts[0].value, parts[1].value);
  if (parts.length === 1 && parts[0]) return fromBounds(parts[0].value, parts[0].value);
  return {kind: 'error', message: BAD_FORMAT};
}

function parseBracket(text: string): PortRangeCast {
  const m = /([[|(])\s*(\d+),\s*(\d+)\s*([\]|)])/.exec(text);
  if (!m) return {kind: 'error', message: BAD_FORMAT};
  const lower = Number(m[2]) + (m[1] === '(' ? 1 : 0);
  const upper = Number(m[3]) - (m[4] === ')' ? 1 : 0);
  return fromBounds(lower, upper);
}

/** Casts a non-empty param value (nil and "" are handled by the caller like Ecto's empty values). */
export function castPortRange(value: unknown): PortRangeCast {
  if (typeof value === 'string') return value.startsWith('[') || value.startsWith('(') ? parseBracket(value) : parseRange(value);
  if (Array.isArray(value) && value.length === 2) {
    const [lower, upper] = value as [unknown, unknown];
    if (Number.isInteger(lower) && Number.isInteger(upper)) return fromBounds(lower as number, upper as number);
    // Non-integer pairs cast to a "L - U" string that fails when dumped to Postgres.
    return {kind: 'crash', reason: `Int4Range dump of ${JSON.stringify(value)}`};
  }
  return {kind: 'crash', reason: `no Int4Range.cast/1 clause for ${JSON.stringify(value)}`};
}

/** Postgres CHECK `port_range <@ int4range(1, 65535)`: a half-open range, so 1..65534. */
export function portRangeWithinValidValues(lower: number, upper: number): boolean {
  return lower >= 1 && upper <= 65534;
}
