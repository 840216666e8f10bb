import { QUANTITIES, QUANTITY_KEYS } from '../../common/catalogue.ts';
import type { SensorField, SensorSnapshot } from '../../server/contract/reading.ts';

/** Every quantity's field, from the catalogue (a new quantity is in every snapshot). */
const FIELDS: SensorField[] = QUANTITY_KEYS.map((q) => QUANTITIES[q].field);

/** A sensor snapshot with only the given fields read, all at `readAtMs` (others never read: null). */
export function makeSnapshot(values: Partial<Record<SensorField, number>>, readAtMs: number): SensorSnapshot {
  const iso = new Date(readAtMs).toISOString();
  return {
    takenAt: iso,
    values: Object.fromEntries(FIELDS.map((f) => [f, values[f] ?? null])) as SensorSnapshot['values'],
    readAt: Object.fromEntries(FIELDS.map((f) => [f, values[f] === undefined ? null : iso])) as SensorSnapshot['readAt'],
  };
}
