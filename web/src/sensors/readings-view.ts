// Pure helpers for showing readings (Overview and Sensor Monitoring): which card shows what, status,
// and the environmental verdicts. No React here, so they read (and test) as plain functions.
import type { Reading, SensorStatus, SensorType } from '../../../server/contract/reading.ts';
import type { AlertThresholds } from '../../../server/contract/settings.ts';
import { QUANTITIES, type QuantityField, type QuantityKey } from '../../../common/catalogue.ts';
import { formatLight, formatOneDecimal } from '../format.ts';
import { formatQuantity } from './quantities.ts';

/** A reading older than 5 minutes puts its sensor in 'warning' (the server's own constant). */
export { STALE_AFTER_MS } from '../../../common/catalogue.ts';
import { STALE_AFTER_MS } from '../../../common/catalogue.ts';
/** Spec section 9: soil moisture is adequate at or above 30 %. */
export const SOIL_ADEQUATE_PCT = 30;
/** Used for "Sufficient Light" when the operator has set no light threshold (a dim overcast day). */
export const DEFAULT_LOW_LIGHT_LUX = 1000;

export type ReadingField = QuantityField;

export interface CardSpec {
  key: string;
  label: string;
  sensorType: SensorType;
  field: ReadingField;
  unit: string;
  /** Shown only when a configured sensor measures this quantity (sensors/measured-quantities.ts). */
  quantity?: QuantityKey;
}

/** The four current-reading cards of docs/product.md §2, plus the water tank (the gateway measures it). */
export const READING_CARDS: readonly CardSpec[] = [
  { key: 'temperature', label: 'Temperature', sensorType: 'DHT11', field: 'temperature', unit: '°C' },
  { key: 'humidity', label: 'Humidity', sensorType: 'DHT11', field: 'humidity', unit: '%' },
  { key: 'light', label: 'Light Intensity', sensorType: 'LDR', field: 'lightIntensity', unit: 'lux' },
  { key: 'soil', label: 'Soil Moisture', sensorType: 'SOIL_MOISTURE', field: 'soilMoisture', unit: '%' },
];
export const WATER_CARD: CardSpec = { key: 'water', label: 'Water Level', sensorType: 'WATER_LEVEL', field: 'waterLevel', unit: 'cm' };

/** A card for a quantity that not every greenhouse measures (CO2, pressure, root temperature), from the catalogue. */
export function optionalCard(quantity: QuantityKey): CardSpec {
  const { field, label, unit, zone } = QUANTITIES[quantity];
  return { key: field, label, sensorType: zone, field, unit, quantity };
}

/**
 * The cards to show: the spec's four (and the tank when asked), then each optional quantity a
 * configured sensor measures, in catalogue order.
 */
export function readingCards(optional: readonly QuantityKey[], measured: ReadonlySet<QuantityKey>, withWater: boolean): CardSpec[] {
  return [...READING_CARDS, ...(withWater ? [WATER_CARD] : []), ...optional.filter((q) => measured.has(q)).map(optionalCard)];
}

/** One decimal; light as a whole number; '---' when missing (docs/product.md §9); the others to their catalogue precision. */
export function formatField(field: ReadingField, value: number | undefined | null): string {
  if (field === 'lightIntensity') return formatLight(value);
  if (field === 'temperature' || field === 'humidity' || field === 'soilMoisture' || field === 'waterLevel') return formatOneDecimal(value);
  return formatQuantity(field, value);
}

/** The server's status wins when it says 'fault' (every sensor of the zone faulted: draw no value). */
export function statusOf(reading: (Reading & { status?: SensorStatus }) | undefined, nowMs: number): SensorStatus {
  if (!reading) return 'offline';
  if (reading.status === 'fault') return 'fault';
  return nowMs - Date.parse(reading.timestamp) > STALE_AFTER_MS ? 'warning' : 'online';
}

type Verdict = { label: string; ok: boolean } | null;

/** Optimal when inside the thresholds that are set; null when there is no value to judge. */
export function rangeVerdict(value: number | undefined, bounds: { high: number | null; low: number | null } | undefined): Verdict {
  if (value === undefined) return null;
  const ok = (bounds?.high == null || value <= bounds.high) && (bounds?.low == null || value >= bounds.low);
  return { label: ok ? 'Optimal' : 'Needs Attention', ok };
}

export function lightVerdict(lux: number | undefined, thresholds: AlertThresholds | undefined): Verdict {
  if (lux === undefined) return null;
  const ok = lux >= (thresholds?.lightLevel.low ?? DEFAULT_LOW_LIGHT_LUX);
  return { label: ok ? 'Sufficient' : 'Low Light', ok };
}

export function soilVerdict(pct: number | undefined): Verdict {
  if (pct === undefined) return null;
  const ok = pct >= SOIL_ADEQUATE_PCT;
  return { label: ok ? 'Adequate' : 'Needs Water', ok };
}

export function waterVerdict(cm: number | undefined, thresholds: AlertThresholds | undefined): Verdict {
  if (cm === undefined) return null;
  const low = thresholds?.waterLevel?.low ?? null;
  const ok = low === null || cm >= low;
  return { label: ok ? 'OK' : 'Low Tank', ok };
}
