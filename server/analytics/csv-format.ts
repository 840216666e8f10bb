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

/**
 * Decimals per value column, as the dashboard shows them (the catalogue's precision: one decimal, light
 * and CO2 whole): a grower's spreadsheet wants 21.4, not 21.437512 from an averaged or calibrated value.
 */
const DECIMALS = QUANTITY_KEYS.map((q) => QUANTITIES[q].precision);

// Numbers are written as numbers (a negative temperature is not a formula); text goes through csvCell.
const cell = (value: number | null, column: number) => (value === null ? '' : String(Number(value.toFixed(DECIMALS[column] ?? 1))));

const pad = (n: number) => String(n).padStart(2, '0');

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

export function csvLine(row: CsvRow): string {
  const [takenAt, sensorType, ...values] = row;
  return `${localIsoTimestamp(takenAt)},${csvCell(sensorType)},${values.map(cell).join(',')}\n`;
}
