import type { SensorField, SensorSnapshot } from '../../server/contract/reading.ts';

const FIELDS: SensorField[] = ['temperature', 'humidity', 'lightIntensity', 'soilMoisture', 'waterLevel'];

/** A sensor snapshot as the sampler publishes it: every given field read at `readAtMs`. */
export function snapshotOf(values: Partial<Record<SensorField, number | null>>, readAtMs: number, takenAtMs = readAtMs): SensorSnapshot {
  const snapshot: SensorSnapshot = {
    takenAt: new Date(takenAtMs).toISOString(),
    values: { temperature: null, humidity: null, lightIntensity: null, soilMoisture: null, waterLevel: null },
    readAt: { temperature: null, humidity: null, lightIntensity: null, soilMoisture: null, waterLevel: null },
  };
  for (const field of FIELDS) {
    const value = values[field];
    if (value === undefined || value === null) continue;
    snapshot.values[field] = value;
    snapshot.readAt[field] = new Date(readAtMs).toISOString();
  }
  return snapshot;
}
