// Value formatting shared by every screen. Pure functions of their inputs (and `now`).

const IEC_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** A value in its IEC unit: 1115 → [1.09, 'KiB']. */
function scaled(bytes: number): [number, string] {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < IEC_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return [value, IEC_UNITS[unit]!];
}

/**
 * Firezone's web UI format: IEC, two decimals, nil counts as 0 ("0.00 B", "1.09 KiB"). A count no
 * server can mean (negative, not a number) reads `?`: the console does not know it.
 */
export function formatBytes(bytes: number | null | undefined): string {
  const b = bytes ?? 0;
  if (!Number.isFinite(b) || b < 0) return '?';
  const [value, unit] = scaled(b);
  return `${value.toFixed(2)} ${unit}`;
}

/**
 * Rates: same units per second, `–` when no rate is known. One decimal from 100 up, so the widest
 * ("1023.9 KiB/s") fits the 12-cell RX/S and TX/S columns instead of being cut.
 */
export function formatRate(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond === null || bytesPerSecond === undefined) return '–';
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond < 0) return '?';
  if (bytesPerSecond === 0) return '0 B/s';
  const [value, unit] = scaled(bytesPerSecond);
  return `${value.toFixed(value >= 100 ? 1 : 2)} ${unit}/s`;
}

/**
 * A rate in a few cells, for a header with no room for `12.35 MiB/s`: `12M`, `1.2M`, `980K`, `0`;
 * bytes per second in the same binary units (the letter of the unit, no `iB/s`).
 */
export function formatRateCompact(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond === null || bytesPerSecond === undefined) return '–';
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond < 0) return '?';
  const [value, unit] = scaled(bytesPerSecond);
  const digits = value >= 9.95 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${digits}${unit === 'B' ? '' : unit[0]}`;
}

/** Compact age: `42s`, `3m`, `5h`, `12d`, `never`. Future times (clock skew) read as `0s`. */
export function formatAge(thenMs: number | null, nowMs: number): string {
  if (thenMs === null) return 'never';
  const s = Math.max(0, Math.floor((nowMs - thenMs) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 365) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

/** Absolute local time for detail views: `2023-03-29 15:11:47`. */
export function formatTimestamp(ms: number | null): string {
  if (ms === null) return 'Never';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function formatDate(ms: number): string {
  return formatTimestamp(ms).slice(0, 10);
}

/** `42s ago · 2023-03-29 15:11:47`, or `Never`. */
export function formatWhen(ms: number | null, nowMs: number): string {
  return ms === null ? 'Never' : `${formatAge(ms, nowMs)} ago · ${formatTimestamp(ms)}`;
}

export function parseTime(iso: string | null): number | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/** Web UI: lists joined with ", ", empty shows "None". */
export function formatList(list: readonly string[] | null): string {
  return list && list.length > 0 ? list.join(', ') : 'None';
}

/** Web UI: keepalive 0 reads "Disabled", otherwise "Every N seconds". */
export function formatKeepalive(seconds: number | null): string {
  if (seconds === null) return 'None';
  return seconds === 0 ? 'Disabled' : `Every ${seconds} seconds`;
}

/** The web UI's VPN session presets (docs/firezone-0.7.36.md, "VPN session duration and the ENABLED/DISABLED/EXPIRED tag"). */
export const SESSION_PRESETS: ReadonlyArray<{label: string; seconds: number}> = [
  {label: 'Never', seconds: 0},
  {label: 'Once', seconds: 2147483647},
  {label: 'Every Hour', seconds: 3600},
  {label: 'Every Day', seconds: 86400},
  {label: 'Every Week', seconds: 604800},
  {label: 'Every 30 Days', seconds: 2592000},
  {label: 'Every 90 Days', seconds: 7776000},
];

export function formatSessionDuration(seconds: number): string {
  return SESSION_PRESETS.find((p) => p.seconds === seconds)?.label ?? `Every ${seconds} seconds`;
}

/** "1 device", "3 devices". */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
