import type Database from 'better-sqlite3';
import type { SensorType } from '../contract/reading.ts';
import { HOUR_MS } from '../history/rollup-levels.ts';
import type { ReadingRow } from './reading-row.ts';

/**
 * Rows of `readings` scanned at once, by id, when the unfolded rows are looked through: about a
 * millisecond here, under 10 ms on a Pi core (docs/storage.md, "The newest reading of a sensor").
 */
const NEWEST_SCAN_SLICE_ROWS = 5_000;

/** Where a sensor's newest row stands among the rows scanned so far (the pair's key is greenhouse and sensor type). */
interface Newest {
  id: number;
  takenAtMs: number;
}

/**
 * The newest stored row of one sensor, without a (sensor_type, taken_at) index on `readings` (dropped
 * to spare the SD card: docs/storage.md). The newer of two answers wins:
 * - among the rows the rollups have folded: the sensor's newest hourly rollup bucket (a backwards walk
 *   of the rollups' primary key), then that hour's raw rows through the time index;
 * - among the rows above the watermark (normally the last minutes): the newest of each sensor, kept in
 *   memory for a range of ids that only grows. New rows are looked through once, as they come; older
 *   ones down to the watermark in slices of NEWEST_SCAN_SLICE_ROWS.
 *
 * Normally everything above the watermark is a few hundred rows, scanned as this is made. In a database
 * restored or imported with raw rows only, or upgraded from a build without rollups, millions can be
 * unfolded; a scan of them all would hold the event loop for seconds on a Pi core, once per sensor and
 * request (the Now screen polls). Then the newest rows are scanned at once (the sensors that report now
 * are among them) and the rest by the rollups' catch-up, a slice at a time (`scanOlderSlice`). Until it
 * is through, a sensor whose newest row lies in the part not yet scanned is answered from the rollups:
 * an older reading, never a newer one.
 */
export class NewestReading {
  readonly #maxId: Database.Statement;
  readonly #watermark: Database.Statement;
  readonly #newestInRange: Database.Statement;
  readonly #lastIdAt: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #newestHour: Database.Statement;
  readonly #inHour: Database.Statement;
  /** Rows with fromId < id <= throughId have been looked through. */
  #fromId = 0;
  #throughId = 0;
  readonly #newest = new Map<string, Newest>();
  readonly #sliceRows: number;

  constructor(sqlite: Database.Database, options: { sliceRows?: number } = {}) {
    this.#sliceRows = options.sliceRows ?? NEWEST_SCAN_SLICE_ROWS;
    this.#maxId = sqlite.prepare(`SELECT coalesce(max(id), 0) FROM readings`).pluck();
    this.#watermark = sqlite.prepare(`SELECT coalesce(max(folded_through_id), 0) FROM rollup_watermark`).pluck();
    this.#newestInRange = sqlite.prepare(
      `SELECT greenhouse_id AS greenhouseId, sensor_type AS sensorType, max(taken_at) AS takenAtMs
       FROM readings WHERE id > ? AND id <= ? GROUP BY greenhouse_id, sensor_type`,
    );
    // Two rows of one sensor at the same instant: the later one is the newest, as in `newer` below.
    this.#lastIdAt = sqlite
      .prepare(`SELECT max(id) FROM readings WHERE taken_at = ? AND id > ? AND id <= ? AND sensor_type = ? AND greenhouse_id = ?`)
      .pluck();
    this.#byId = sqlite.prepare(`SELECT * FROM readings WHERE id = ?`);
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
    this.#restart();
  }

  find(greenhouseId: string, sensorType: SensorType): ReadingRow | undefined {
    const unfolded = this.#newestScanned(greenhouseId, sensorType);
    const hour = this.#newestHour.get(sensorType, greenhouseId) as number | undefined;
    const folded = hour === undefined ? undefined : (this.#inHour.get(hour, hour + HOUR_MS, sensorType, greenhouseId) as ReadingRow | undefined);
    if (!unfolded) return folded;
    if (!folded) return unfolded;
    return newer(folded, unfolded);
  }

  /** True once every row above the watermark has been looked through (answers are exact). */
  scannedToWatermark(): boolean {
    return this.#fromId <= (this.#watermark.get() as number);
  }

  /**
   * Looks through one more slice of the unfolded rows below those already scanned; returns whether
   * any are left. The rollups' catch-up calls it between its own slices.
   */
  scanOlderSlice(): boolean {
    const watermark = this.#watermark.get() as number;
    if (this.#fromId <= watermark) return false;
    const fromId = Math.max(watermark, this.#fromId - this.#sliceRows);
    this.#scan(fromId, this.#fromId);
    this.#fromId = fromId;
    return fromId > watermark;
  }

  #newestScanned(greenhouseId: string, sensorType: SensorType): ReadingRow | undefined {
    this.#scanNewRows();
    // What is left below is small (a tick's worth): exact at once rather than after the catch-up.
    if (this.#fromId - (this.#watermark.get() as number) <= this.#sliceRows) this.scanOlderSlice();
    const known = this.#newest.get(keyOf(greenhouseId, sensorType));
    if (!known) return undefined;
    const row = this.#byId.get(known.id) as ReadingRow | undefined;
    if (row) return row;
    // Deleted since it was scanned (retention of a sensor long silent): start over from the top.
    this.#restart();
    const again = this.#newest.get(keyOf(greenhouseId, sensorType));
    return again ? (this.#byId.get(again.id) as ReadingRow | undefined) : undefined;
  }

  /** Forgets what was scanned, then looks through the newest slice of rows (the sensors reporting now). */
  #restart(): void {
    this.#newest.clear();
    this.#fromId = this.#throughId = this.#maxId.get() as number;
    this.scanOlderSlice();
  }

  #scanNewRows(): void {
    const maxId = this.#maxId.get() as number;
    if (maxId < this.#throughId) {
      // Rows above what was scanned are gone (the table emptied): nothing known can be trusted.
      this.#restart();
      return;
    }
    if (maxId === this.#throughId) return;
    this.#scan(this.#throughId, maxId);
    this.#throughId = maxId;
  }

  /** Merges the newest row of each sensor with fromId < id <= throughId into what is known. */
  #scan(fromId: number, throughId: number): void {
    const found = this.#newestInRange.all(fromId, throughId) as Array<{ greenhouseId: string; sensorType: string; takenAtMs: number }>;
    for (const { greenhouseId, sensorType, takenAtMs } of found) {
      const id = this.#lastIdAt.get(takenAtMs, fromId, throughId, sensorType, greenhouseId) as number;
      const key = keyOf(greenhouseId, sensorType);
      const known = this.#newest.get(key);
      if (!known || takenAtMs > known.takenAtMs || (takenAtMs === known.takenAtMs && id > known.id)) this.#newest.set(key, { id, takenAtMs });
    }
  }
}

const keyOf = (greenhouseId: string, sensorType: string) => `${greenhouseId}\u0000${sensorType}`;

function newer(a: ReadingRow, b: ReadingRow): ReadingRow {
  const at = (r: ReadingRow) => Number(r.taken_at);
  if (at(a) !== at(b)) return at(a) > at(b) ? a : b;
  return Number(a.id) > Number(b.id) ? a : b;
}
