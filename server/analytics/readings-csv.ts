import { Readable } from 'node:stream';
import Database from 'better-sqlite3';

export const CSV_COLUMNS = ['timestamp', 'sensorType', 'temperature', 'humidity', 'lightIntensity', 'soilMoisture', 'waterLevel'] as const;

/** Rows per `read()` call are bounded by bytes, not count: a chunk stays near the stream's buffer size. */
const CHUNK_BYTES = 64 * 1024;

type Row = [takenAt: number, sensorType: string, ...values: Array<number | null>];

/**
 * Decimals per value column, as the dashboard shows them (spec section 9: one decimal, light whole):
 * a grower's spreadsheet wants 21.4, not 21.437512 from an averaged or calibrated value.
 */
const DECIMALS = [1, 1, 0, 1, 1] as const;

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

export function csvLine(row: Row): string {
  const [takenAt, sensorType, ...values] = row;
  return `${localIsoTimestamp(takenAt)},${sensorType},${values.map(cell).join(',')}\n`;
}

/**
 * The readings of one greenhouse in [fromMs, toMs] as CSV, produced as the consumer reads: rows come
 * from a better-sqlite3 iterator one chunk per `read()`, so a week of 1 Hz data is never in memory at
 * once and a slow client simply pauses the query.
 *
 * It reads through its own read-only connection: a better-sqlite3 connection with an open iterator
 * cannot run any other statement, and the sampler must keep writing while a download is in progress
 * (WAL lets the reader see a consistent snapshot while writers go on).
 */
export function readingsCsvStream(dbPath: string, greenhouseId: string, fromMs: number, toMs: number): Readable {
  let connection: Database.Database | null = null;
  let rows: IterableIterator<Row> | null = null;
  let headerSent = false;

  const close = () => {
    rows?.return?.();
    rows = null;
    if (connection?.open) connection.close();
    connection = null;
  };

  return new Readable({
    highWaterMark: CHUNK_BYTES,
    read() {
      try {
        if (!rows) {
          connection = new Database(dbPath, { readonly: true, fileMustExist: true });
          rows = connection
            .prepare(
              `SELECT taken_at, sensor_type, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm
               FROM readings WHERE greenhouse_id = ? AND taken_at >= ? AND taken_at <= ?
               ORDER BY taken_at, id`,
            )
            .raw()
            .iterate(greenhouseId, fromMs, toMs) as IterableIterator<Row>;
        }
        let chunk = headerSent ? '' : `${CSV_COLUMNS.join(',')}\n`;
        headerSent = true;
        while (chunk.length < CHUNK_BYTES) {
          const next = rows.next();
          if (next.done) {
            close();
            if (chunk) this.push(chunk);
            this.push(null);
            return;
          }
          chunk += csvLine(next.value);
        }
        this.push(chunk);
      } catch (err) {
        this.destroy(err as Error);
      }
    },
    destroy(err, callback) {
      close();
      callback(err);
    },
  });
}
