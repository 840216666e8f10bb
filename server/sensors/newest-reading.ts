import type Database from 'better-sqlite3';
import type { SensorType } from '../contract/reading.ts';
import { HOUR_MS } from '../history/rollup-levels.ts';
import type { ReadingRow } from './reading-row.ts';

/**
 * The newest stored row of one sensor, without a (sensor_type, taken_at) index on `readings` (dropped
 * to spare the SD card: docs/storage.md). Two bounded lookups, the newer wins:
 * - rows the rollups have not folded yet (above the watermark: normally the last minutes), by id;
 * - the sensor's newest hourly rollup bucket (a backwards walk of the rollups' primary key), then that
 *   hour's raw rows through the time index.
 * A sensor that never reported costs one walk of the hourly level (~35,000 entries a year for four
 * sensors), never a scan of the raw table.
 */
export class NewestReading {
  readonly #unfolded: Database.Statement;
  readonly #newestHour: Database.Statement;
  readonly #inHour: Database.Statement;

  constructor(sqlite: Database.Database) {
    this.#unfolded = sqlite.prepare(
      `SELECT * FROM readings WHERE id > (SELECT coalesce(max(folded_through_id), 0) FROM rollup_watermark)
       AND sensor_type = ? AND greenhouse_id = ? ORDER BY taken_at DESC, id DESC LIMIT 1`,
    );
    this.#newestHour = sqlite
      .prepare(
        `SELECT bucket_at FROM reading_rollups WHERE resolution_ms = ${HOUR_MS} AND sensor_type = ? AND greenhouse_id = ?
         ORDER BY bucket_at DESC LIMIT 1`,
      )
      .pluck();
    this.#inHour = sqlite.prepare(
      `SELECT * FROM readings WHERE taken_at >= ? AND taken_at < ? AND sensor_type = ? AND greenhouse_id = ?
       ORDER BY taken_at DESC, id DESC LIMIT 1`,
    );
  }

  find(greenhouseId: string, sensorType: SensorType): ReadingRow | undefined {
    const unfolded = this.#unfolded.get(sensorType, greenhouseId) as ReadingRow | undefined;
    const hour = this.#newestHour.get(sensorType, greenhouseId) as number | undefined;
    const folded = hour === undefined ? undefined : (this.#inHour.get(hour, hour + HOUR_MS, sensorType, greenhouseId) as ReadingRow | undefined);
    if (!unfolded) return folded;
    if (!folded) return unfolded;
    return newer(folded, unfolded);
  }
}

function newer(a: ReadingRow, b: ReadingRow): ReadingRow {
  const at = (r: ReadingRow) => Number(r.taken_at);
  if (at(a) !== at(b)) return at(a) > at(b) ? a : b;
  return Number(a.id) > Number(b.id) ? a : b;
}
