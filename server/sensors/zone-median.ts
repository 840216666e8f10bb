import { accuracyOf, ZONE_QUANTITIES, type QuantityKey, type SensorKind } from '../../common/catalogue.ts';
import type { QuantityValues } from '../../drivers/types.ts';
import type { SensorType } from '../contract/reading.ts';
import { vpdUncertaintyKpa } from './climate-metrics.ts';
import type { NewReading } from './readings-repo.ts';

/** One instance's fresh, healthy answer in a tick. */
export interface InstanceAnswer {
  sensorId: string;
  kind: SensorKind;
  zone: SensorType;
  values: QuantityValues;
  readAtMs: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The bound on a median's error from its inputs' accuracies: with two inputs the median is their mean,
 * so its error is at most the mean of their bounds; otherwise it lies between inputs, so at most the
 * largest bound.
 */
export function medianAccuracy(bounds: readonly number[]): number {
  if (bounds.length === 2) return (bounds[0]! + bounds[1]!) / 2;
  return Math.max(...bounds);
}

/**
 * The zone rows of one tick: each quantity is the median of the fresh, healthy instances that
 * measured it; a quantity nobody measured this tick is absent (null), and a zone with no value at all
 * has no row. The air zone carries VPD's uncertainty from the accuracy of the sensors used.
 */
export function zoneRows(answers: readonly InstanceAnswer[]): NewReading[] {
  const rows: NewReading[] = [];
  for (const zone of Object.keys(ZONE_QUANTITIES) as SensorType[]) {
    const inZone = answers.filter((a) => a.zone === zone);
    if (inZone.length === 0) continue;
    const row: NewReading = { sensorType: zone, takenAtMs: Math.max(...inZone.map((a) => a.readAtMs)) };
    const accuracy: Partial<Record<QuantityKey, number>> = {};
    for (const q of ZONE_QUANTITIES[zone]) {
      const used = inZone.filter((a) => typeof a.values[q] === 'number');
      if (used.length === 0) continue;
      const value = median(used.map((a) => a.values[q]!));
      row[q] = value;
      accuracy[q] = medianAccuracy(used.map((a) => accuracyOf(a.kind, q, value) ?? 0));
    }
    if (!ZONE_QUANTITIES[zone].some((q) => typeof row[q] === 'number')) continue;
    if (typeof row.temperatureC === 'number' && typeof row.humidityPct === 'number') {
      row.vpdUncertaintyKpa = vpdUncertaintyKpa(row.temperatureC, row.humidityPct, accuracy.temperatureC ?? 0, accuracy.humidityPct ?? 0);
    }
    rows.push(row);
  }
  return rows;
}
