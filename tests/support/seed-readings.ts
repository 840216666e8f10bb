import type Database from 'better-sqlite3';

export interface SeedReading {
  takenAtMs: number;
  sensorType?: 'DHT11' | 'LDR' | 'SOIL_MOISTURE' | 'WATER_LEVEL';
  greenhouseId?: string;
  temperatureC?: number | null;
  humidityPct?: number | null;
  lightLux?: number | null;
  soilMoisturePct?: number | null;
  waterLevelCm?: number | null;
}

/** Writes readings straight into SQLite (tests and benches that need history the sampler never made). */
export function seedReadings(sqlite: Database.Database, rows: Iterable<SeedReading>): number {
  const insert = sqlite.prepare(
    `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct, light_lux, soil_moisture_pct, water_level_cm)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let count = 0;
  sqlite.transaction(() => {
    for (const r of rows) {
      insert.run(
        r.greenhouseId ?? 'greenhouse-001',
        r.sensorType ?? 'DHT11',
        r.takenAtMs,
        r.temperatureC ?? null,
        r.humidityPct ?? null,
        r.lightLux ?? null,
        r.soilMoisturePct ?? null,
        r.waterLevelCm ?? null,
      );
      count++;
    }
  })();
  return count;
}
