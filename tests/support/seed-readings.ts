import type Database from 'better-sqlite3';
import { ReadingsRepo, type NewReading } from '../../server/sensors/readings-repo.ts';

export interface SeedReading extends Partial<Omit<NewReading, 'takenAtMs'>> {
  takenAtMs: number;
  /** Default greenhouse-001. */
  greenhouseId?: string;
}

/**
 * Writes readings the sampler never made (history around a cutoff, a week of data) through the real
 * repository, one transaction per greenhouse. Returns how many rows were written.
 */
export function seedReadings(sqlite: Database.Database, rows: Iterable<SeedReading>): number {
  const byGreenhouse = new Map<string, NewReading[]>();
  for (const { greenhouseId = 'greenhouse-001', sensorType = 'DHT11', ...values } of rows) {
    const list = byGreenhouse.get(greenhouseId) ?? [];
    list.push({ sensorType, ...values });
    byGreenhouse.set(greenhouseId, list);
  }
  const repo = new ReadingsRepo(sqlite);
  let count = 0;
  for (const [greenhouseId, list] of byGreenhouse) count += repo.insertTick(greenhouseId, list).length;
  return count;
}
