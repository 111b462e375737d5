// Timestamps as 0.7.36 stores and renders them: `:utc_datetime_usec`, i.e. microseconds since the
// Unix epoch, rendered ISO-8601 with exactly six fractional digits and `Z` (docs/firezone-0.7.36.md,
// "Scalar encodings and the lost /32").

let lastMicros = 0;

/** Wall-clock microseconds, strictly increasing within the process so two writes never share a stamp. */
export function nowMicros(): number {
  const micros = Math.round((performance.timeOrigin + performance.now()) * 1000);
  lastMicros = micros > lastMicros ? micros : lastMicros + 1;
  return lastMicros;
}

export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_DAY = 86_400 * MICROS_PER_SECOND;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * ISO-8601 with six fractional digits. Computed arithmetically (civil-from-days) rather than via
 * Date#toISOString because a 50,000-device list renders 150,000 of these.
 */
export function formatTimestamp(micros: number): string {
  const seconds = Math.floor(micros / MICROS_PER_SECOND);
  const fraction = micros - seconds * MICROS_PER_SECOND;
  const days = Math.floor(seconds / 86400);
  const secOfDay = seconds - days * 86400;
  // Howard Hinnant's days → (year, month, day), valid for the proleptic Gregorian calendar
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const h = Math.floor(secOfDay / 3600);
  const m = Math.floor((secOfDay % 3600) / 60);
  const s = secOfDay % 60;
  const frac = String(fraction).padStart(6, '0');
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(h)}:${pad2(m)}:${pad2(s)}.${frac}Z`;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;

/** Parses an ISO-8601 timestamp (fraction up to 9 digits, truncated to microseconds); null if malformed. */
export function parseTimestamp(text: string): number | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) return null;
  const check = new Date(ms);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return null;
  }
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const micros = (frac ?? '').padEnd(6, '0').slice(0, 6);
  return (ms / 1000 - offsetMinutes * 60) * MICROS_PER_SECOND + Number(micros);
}
