import { SENSOR_UNITS, type SensorField, type SensorSnapshot } from '../../server/contract/reading.ts';

const FIELDS = Object.keys(SENSOR_UNITS) as SensorField[];
const nothing = () => Object.fromEntries(FIELDS.map((f) => [f, null])) as Record<SensorField, null>;

/** A sensor snapshot as the sampler publishes it: every given field read at `readAtMs` (the others never read: null). */
export function snapshotOf(values: Partial<Record<SensorField, number | null>>, readAtMs: number, takenAtMs = readAtMs): SensorSnapshot {
  const snapshot: SensorSnapshot = {
    takenAt: new Date(takenAtMs).toISOString(),
    values: nothing(),
    readAtMs: nothing(),
  };
  for (const field of FIELDS) {
    const value = values[field];
    if (value === undefined || value === null) continue;
    snapshot.values[field] = value;
    snapshot.readAtMs[field] = readAtMs;
  }
  return snapshot;
}
