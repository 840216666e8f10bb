// Display formatting shared by every screen (docs/product.md §9): one decimal, light as an integer,
// '---' for a missing value, relative times ('5 minutes ago') and full timestamps.

export const MISSING = '---';

type Maybe = number | null | undefined;

function isNumber(value: Maybe): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** 21.456 -> '21.5'; missing -> '---'. */
export function formatOneDecimal(value: Maybe): string {
  return isNumber(value) ? value.toFixed(1) : MISSING;
}

/** Light is shown as whole lux: 812.6 -> '813'. */
export function formatLight(value: Maybe): string {
  return isNumber(value) ? Math.round(value).toString() : MISSING;
}

/** A value with its unit, e.g. formatWithUnit(21.46, '°C') -> '21.5°C'; lux is an integer with a space. */
export function formatWithUnit(value: Maybe, unit: string): string {
  if (!isNumber(value)) return MISSING;
  if (unit === 'lux') return `${formatLight(value)} lux`;
  return `${formatOneDecimal(value)}${unit}`;
}

/** '5 minutes ago', 'just now', '2 days ago'. `now` is injectable so callers and tests control time. */
export function formatRelativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return MISSING;
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return MISSING;
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 0) return 'just now'; // slight clock skew between gateway and phone
  if (seconds < 60) return seconds <= 5 ? 'just now' : `${seconds} seconds ago`;
  const units: [number, string][] = [
    [60, 'minute'],
    [60 * 60, 'hour'],
    [60 * 60 * 24, 'day'],
    [60 * 60 * 24 * 30, 'month'],
    [60 * 60 * 24 * 365, 'year'],
  ];
  let chosen = units[0]!;
  for (const unit of units) if (seconds >= unit[0]) chosen = unit;
  const count = Math.floor(seconds / chosen[0]);
  return `${count} ${chosen[1]}${count === 1 ? '' : 's'} ago`;
}

/** Full timestamp as in chart tooltips: 'Mar 5, 2026, 14:03:09' (month day, year, 24-hour with seconds). */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return MISSING;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return MISSING;
  return date.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
}

/** 'TEMPERATURE_HIGH' -> 'TEMPERATURE HIGH' (spec: alert type with underscores as spaces). */
export function formatAlertType(alertType: string): string {
  return alertType.replace(/_/g, ' ');
}

/** '14:03': the gateway-outage and "as of" times (24-hour, the phone's local time). */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
