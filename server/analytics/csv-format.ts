import { QUANTITIES, QUANTITY_KEYS } from '../../common/catalogue.ts';
import { csvCell } from '../domain/csv-cell.ts';

/** The header: time, zone, then every quantity's wire field in catalogue order (common/catalogue.ts). */
export const CSV_COLUMNS = ['timestamp', 'sensorType', ...QUANTITY_KEYS.map((q) => QUANTITIES[q].field)];

/** The readings columns the CSV reads, in CSV_COLUMNS order. */
export const CSV_SOURCE_COLUMNS = ['taken_at', 'sensor_type', ...QUANTITY_KEYS.map((q) => QUANTITIES[q].column)];

/**
 * Characters per chunk the export's worker sends (lines are whole, so a chunk ends at most one line
 * past it): a few fill the socket's buffer, and each is a short piece of main-thread work on a Pi core.
 */
export const CSV_CHUNK_CHARS = 32 * 1024;

export type CsvRow = [takenAt: number, sensorType: string, ...values: Array<number | null>];

/*
 * A week at 1 Hz is 2.4 M lines, and formatting them was half of an export's CPU time (the other half
 * is SQLite reading the rows): docs/performance.md, "The export's lines". Each line is therefore made
 * from parts that repeat: a timestamp's minute, a sensor type's cell, a value rounded without a string
 * round trip. Every shortcut gives exactly the text of the plain formulas kept beside it (`csvLine`,
 * `plainRoundedText`, `localIsoTimestamp`; a unit test compares them over many values and time zones).
 */

/**
 * Decimals per value column, as the dashboard shows them (the catalogue's precision: one decimal, light
 * and CO2 whole): a grower's spreadsheet wants 21.4, not 21.437512 from an averaged or calibrated value.
 */
const DECIMALS = QUANTITY_KEYS.map((q) => QUANTITIES[q].precision);
const SCALES = [1, 10, 100, 1000, 10_000];

/** `String(Number(value.toFixed(decimals)))`: numbers are written as numbers (a negative temperature is not a formula). */
export function plainRoundedText(value: number, decimals: number): string {
  return String(Number(value.toFixed(decimals)));
}

/** Past this the product below could be off by more than the margin it is checked with. */
const LARGEST_FAST_SCALED = 1e9;
const TIE_MARGIN = 1e-6;

/**
 * plainRoundedText without making and parsing a string. toFixed takes the integer nearest to the exact
 * value x 10^decimals; the product in floating point is within 1e-7 of it below LARGEST_FAST_SCALED, so
 * away from a tie (x.5, where toFixed rounds up in magnitude and Math.round towards +infinity) both pick
 * the same integer, and dividing it by the scale gives the very double that parsing toFixed's text
 * gives (IEEE division rounds correctly).
 */
export function roundedText(value: number, decimals: number): string {
  const scale = SCALES[decimals];
  if (scale !== undefined) {
    const scaled = value * scale;
    if (Math.abs(scaled) < LARGEST_FAST_SCALED && Math.abs(Math.abs(scaled - Math.trunc(scaled)) - 0.5) > TIE_MARGIN) {
      return String(Math.round(scaled) / scale);
    }
  }
  return plainRoundedText(value, decimals);
}

const pad = (n: number) => String(n).padStart(2, '0');
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => pad(n));

/** ISO-8601 in the gateway's local time with its offset ('2026-03-05T14:03:09+01:00'): readable and exact. */
export function localIsoTimestamp(epochMs: number): string {
  const d = new Date(epochMs);
  const offsetMin = -d.getTimezoneOffset();
  const sign = offsetMin >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

const MINUTE_MS = 60_000;

/** One UTC minute's timestamp text around its seconds, or null where the seconds alone cannot be swapped in. */
interface MinuteText {
  minute: number;
  parts: { before: string; after: string } | null;
}

function minuteText(minute: number): MinuteText {
  const start = new Date(minute * MINUTE_MS);
  // The local seconds are the UTC seconds only for an offset of whole minutes (not a local mean time
  // such as India's +05:21:10 before 1906, which getTimezoneOffset rounds), and one text serves the
  // minute only if no clock change falls inside it.
  const end = new Date(minute * MINUTE_MS + MINUTE_MS - 1);
  if (start.getSeconds() !== 0 || end.getTimezoneOffset() !== start.getTimezoneOffset()) return { minute, parts: null };
  const startMs = start.getTime();
  const text = localIsoTimestamp(startMs);
  const secondsAt = text.length - 8; // 'ss+hh:mm'
  return { minute, parts: { before: text.slice(0, secondsAt), after: text.slice(secondsAt + 2) } };
}

/** Past this many sensor types (a handful is usual) the rest are not kept. */
const MAX_CACHED_SENSOR_TYPES = 256;

/**
 * A line maker for one export (its caches live as long as it does, in the time zone it started in):
 * `localIsoTimestamp` from the last minute's text (the rows come in time order), `csvCell` of each sensor
 * type once, `roundedText` for the values.
 */
export function createCsvLineWriter(): (row: CsvRow) => string {
  let lastMinute: MinuteText = { minute: Number.NaN, parts: null };
  const sensorTypeCells = new Map<string, string>();

  const timestamp = (epochMs: number): string => {
    const minute = Math.floor(epochMs / MINUTE_MS);
    if (lastMinute.minute !== minute) lastMinute = minuteText(minute);
    const { parts } = lastMinute;
    if (parts === null || !Number.isInteger(epochMs)) return localIsoTimestamp(epochMs);
    return parts.before + TWO_DIGITS[Math.floor(epochMs / 1000) - minute * 60] + parts.after;
  };

  const sensorTypeCell = (sensorType: string): string => {
    let cell = sensorTypeCells.get(sensorType);
    if (cell === undefined) {
      cell = csvCell(sensorType);
      if (sensorTypeCells.size < MAX_CACHED_SENSOR_TYPES) sensorTypeCells.set(sensorType, cell);
    }
    return cell;
  };

  return (row) => {
    let line = `${timestamp(row[0])},${sensorTypeCell(row[1])}`;
    for (let i = 2; i < row.length; i++) {
      const value = row[i] as number | null;
      line += value === null ? ',' : `,${roundedText(value, DECIMALS[i - 2] ?? 1)}`;
    }
    return `${line}\n`;
  };
}

/** One line on its own, from the plain formulas: what every line of createCsvLineWriter must equal. */
export function csvLine(row: CsvRow): string {
  const [takenAt, sensorType, ...values] = row;
  return `${localIsoTimestamp(takenAt)},${csvCell(sensorType)},${values.map((value, column) => (value === null ? '' : plainRoundedText(value, DECIMALS[column] ?? 1))).join(',')}\n`;
}
