import type Database from 'better-sqlite3';
import { ReadingsRepo } from '../../server/sensors/readings-repo.ts';

/** Stores DHT11, LDR and soil readings every `stepMs` from `fromMs` up to (not including) `toMs`. */
export function seedReadings(
  sqlite: Database.Database,
  fromMs: number,
  toMs: number,
  values: { temperatureC: number; humidityPct: number; lightLux: number; soilMoisturePct: number },
  stepMs = 10 * 60_000,
): void {
  const repo = new ReadingsRepo(sqlite);
  for (let t = fromMs; t < toMs; t += stepMs) {
    repo.insertTick('greenhouse-001', [
      { sensorType: 'DHT11', takenAtMs: t, temperatureC: values.temperatureC, humidityPct: values.humidityPct },
      { sensorType: 'LDR', takenAtMs: t, lightLux: values.lightLux },
      { sensorType: 'SOIL_MOISTURE', takenAtMs: t, soilMoisturePct: values.soilMoisturePct },
    ]);
  }
}
