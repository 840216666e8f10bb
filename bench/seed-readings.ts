// Seeding for the history benches: one reading every `stepS` seconds per sensor type, written in SQL
// (a recursive CTE) with the indexes dropped and rebuilt afterwards and durability off. The seed is
// setup, not what is measured, and must fit a bench's time box on two cores.
import type Database from 'better-sqlite3';

export const BENCH_GREENHOUSE = 'greenhouse-001';

/** Raw rows only, as a restore or an import leaves them: the rollups must catch up by themselves. */
export function seedRawReadings(sqlite: Database.Database, options: { seconds: number; stepS: number; endMs: number }): number {
  const { seconds, stepS, endMs } = options;
  const ticks = Math.floor(seconds / stepS);
  const indexes = sqlite
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'readings' AND sql IS NOT NULL`)
    .all() as Array<{ name: string; sql: string }>;
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  for (const { name } of indexes) sqlite.exec(`DROP INDEX ${name}`);
  // i is the tick number; the day's sine drives temperature, humidity and light.
  sqlite.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < :n - 1)
     INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm)
     SELECT :g, t.type, :start + i * :stepMs,
            CASE t.type WHEN 'DHT11' THEN 20 + 6 * sin(i * :stepS * 6.2832 / 86400) + (i % 7) / 10.0 END,
            CASE t.type WHEN 'DHT11' THEN 60 - 15 * sin(i * :stepS * 6.2832 / 86400) END,
            CASE t.type WHEN 'LDR' THEN max(0, 20000 * sin(i * :stepS * 6.2832 / 86400)) END,
            CASE t.type WHEN 'SOIL_MOISTURE' THEN 40 - ((i * :stepS) % 3600) / 360.0 END,
            CASE t.type WHEN 'WATER_LEVEL' THEN 30 - ((i * :stepS) % 86400) / 8640.0 END
     FROM s, (SELECT 'DHT11' AS type UNION ALL SELECT 'LDR' UNION ALL SELECT 'SOIL_MOISTURE' UNION ALL SELECT 'WATER_LEVEL') AS t`,
  ).run({ n: ticks, g: BENCH_GREENHOUSE, start: endMs - (ticks - 1) * stepS * 1000, stepMs: stepS * 1000, stepS });
  for (const { sql } of indexes) sqlite.exec(sql);
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return ticks * 4;
}
