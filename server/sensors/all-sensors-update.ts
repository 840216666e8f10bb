import { QUANTITIES, QUANTITY_KEYS } from '../../common/catalogue.ts';
import type { AllSensorsUpdate, SensorSnapshot } from '../contract/reading.ts';
import { climateMetrics } from './climate-metrics.ts';

/**
 * The one `allSensorsUpdate` payload (the realtime event and MQTT's `sensors/state`): the newest value
 * of every quantity in the catalogue, with VPD and dew point from the newest temperature and humidity
 * and VPD's uncertainty from the air sensors that gave them.
 */
export function allSensorsUpdate(greenhouseId: string, snapshot: SensorSnapshot): AllSensorsUpdate {
  const { values } = snapshot;
  const metrics = climateMetrics(values.temperature, values.humidity);
  const update = {
    greenhouseId,
    vpdKpa: metrics.vpdKpa ?? null,
    dewPointC: metrics.dewPointC ?? null,
    vpdUncertaintyKpa: metrics.vpdKpa === undefined ? null : (snapshot.vpdUncertaintyKpa ?? null),
    timestamp: snapshot.takenAt,
  } as AllSensorsUpdate;
  for (const q of QUANTITY_KEYS) update[QUANTITIES[q].field] = values[QUANTITIES[q].field] ?? null;
  return update;
}
