import { openDatabase } from '../../server/db/open.ts';

/**
 * Writes DHT11 readings straight into `readings` of the data dir's database, behind the rollups'
 * back, as a restore, an import or a build from before the rollups left them: every `stepMs` from
 * `fromMs` up to `untilMs`. Returns how many rows it wrote.
 */
export function writeRawReadings(
  dataDir: string,
  { fromMs, untilMs, stepMs, temperatureC }: { fromMs: number; untilMs: number; stepMs: number; temperatureC: (row: number) => number },
): number {
  const database = openDatabase(dataDir);
  try {
    const insert = database.sqlite.prepare(
      `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct) VALUES ('greenhouse-001', 'DHT11', ?, ?, 50)`,
    );
    let rows = 0;
    database.sqlite.transaction(() => {
      for (let t = fromMs; t < untilMs; t += stepMs, rows++) insert.run(t, temperatureC(rows));
    })();
    return rows;
  } finally {
    database.close();
  }
}
