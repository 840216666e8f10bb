// Which quantities the configured sensors measure (the instances route, each instance's `quantities`).
// The quantities every greenhouse has (the spec's four and the tank) are always shown; the others (CO2,
// pressure, root-zone temperature) only where a configured sensor measures one: a card or a threshold
// for a quantity nothing measures could only ever say '---' or never fire.
import { QUANTITIES, type QuantityKey } from '../../../common/catalogue.ts';
import type { SensorInstance } from '../../../server/contract/reading.ts';
import { useSensorInstances } from '../api/queries.ts';

/** Quantities a gateway may run without: shown only when a configured sensor measures them. */
export const OPTIONAL_QUANTITIES: readonly QuantityKey[] = ['co2Ppm', 'pressureHpa', 'rootTemperatureC'];

/** The set of quantities the instances measure (empty while the list is unknown). */
export function measuredQuantities(instances: readonly SensorInstance[] | undefined): ReadonlySet<QuantityKey> {
  return new Set((instances ?? []).flatMap((i) => i.quantities.filter((q) => q in QUANTITIES)));
}

export function useMeasuredQuantities(): ReadonlySet<QuantityKey> {
  return measuredQuantities(useSensorInstances().data);
}
