// The dashboard's view of the catalogue (common/catalogue.ts): chart series, their axes, and how a
// value is shown. Nothing here is typed by hand per quantity: a quantity added there appears here.
import { QUANTITIES, QUANTITY_KEYS, type QuantityField, type Zone } from '../../../common/catalogue.ts';

export interface SeriesSpec {
  field: QuantityField;
  /** The legend's text, unit included: 'Temperature (°C)'. */
  label: string;
  /** The bare name: 'Temperature'. */
  name: string;
  unit: string;
  precision: number;
  color: string;
  /** The y scale: percent and degrees share 'value'; lux, ppm and hPa get their own axis. */
  scale: string;
}

/** Units whose numbers would flatten the others on one axis: each gets its own scale and right axis. */
const OWN_SCALE_UNITS = new Set(['lux', 'ppm', 'hPa']);

/** Every quantity as a chart series, in catalogue order; only one zone's when given. */
export function chartSeries(zone?: Zone): SeriesSpec[] {
  return QUANTITY_KEYS.filter((q) => zone === undefined || QUANTITIES[q].zone === zone).map((q) => {
    const { field, label, unit, precision, chart } = QUANTITIES[q];
    return { field, label: `${label} (${unit})`, name: label, unit, precision, color: chart.colour, scale: OWN_SCALE_UNITS.has(unit) ? unit : 'value' };
  });
}

/** A value to the quantity's precision, '---' when missing. */
export function formatQuantity(field: QuantityField, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '---';
  const q = QUANTITY_KEYS.find((k) => QUANTITIES[k].field === field);
  const digits = q ? QUANTITIES[q].precision : 1;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
