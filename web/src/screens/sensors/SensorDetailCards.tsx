// Per-sensor detail cards (spec section 2): each field to one decimal with unit, Status and Last Reading.
import type { Reading, SensorType } from '../../../../server/contract/reading.ts';
import { formatTimestamp } from '../../format.ts';
import { sensorName } from '../../names.ts';
import { toUnit, unitSymbol, useTemperatureUnit } from '../../units.ts';
import { QUANTITIES, ZONE_MAIN_QUANTITY, ZONE_QUANTITIES } from '../../../../common/catalogue.ts';
import { statusOf } from '../../sensors/readings-view.ts';
import { formatQuantity } from '../../sensors/quantities.ts';

/**
 * The zones' cards: each zone's quantities from the catalogue. Its main quantity always has a line; the
 * others (CO2, pressure, root temperature) appear when the zone's reading carries them.
 */
const DETAILS = (['DHT11', 'LDR', 'SOIL_MOISTURE'] as const).map((sensorType) => ({
  sensorType,
  title: sensorName(sensorType),
  fields: ZONE_QUANTITIES[sensorType].map((q) => ({ key: q, field: QUANTITIES[q].field, label: QUANTITIES[q].label, unit: QUANTITIES[q].unit })),
}));
const ALWAYS_SHOWN = new Set<string>(['temperatureC', 'humidityPct', ZONE_MAIN_QUANTITY.LDR, ZONE_MAIN_QUANTITY.SOIL_MOISTURE]);

export function SensorDetailCards({ bySensor, nowMs }: { bySensor: Partial<Record<SensorType, Reading>>; nowMs: number }) {
  const temperatureUnit = useTemperatureUnit();
  return (
    <div className="grid grid-3">
      {DETAILS.map(({ sensorType, title, fields }) => {
        const reading = bySensor[sensorType];
        const status = statusOf(reading, nowMs);
        return (
          <section key={sensorType} className="card detail-card" data-testid={`sensor-detail-${sensorType}`}>
            <h3>{title}</h3>
            <p className="muted detail-code">{sensorType}</p>
            <dl>
              {fields
                .filter(({ key, field }) => ALWAYS_SHOWN.has(key) || reading?.[field] !== undefined)
                .map(({ field, label, unit }) => (
                  <div key={field} style={{ display: 'contents' }}>
                    <dt>{label}</dt>
                    <dd>
                      {/* A faulted zone draws no value from its stale reading. */}
                      {reading?.[field] === undefined || status === 'fault'
                        ? '---'
                        : unit === '°C'
                          ? `${toUnit(reading[field]!, temperatureUnit).toFixed(1)} ${unitSymbol(temperatureUnit)}`
                          : `${formatQuantity(field, reading[field]!)} ${unit}`}
                    </dd>
                  </div>
                ))}
              <dt>Status</dt>
              <dd className={`status-${status}`} data-testid={`status-${sensorType}`}>
                {status}
              </dd>
              <dt>Last Reading</dt>
              <dd>{reading ? formatTimestamp(reading.timestamp) : 'Never'}</dd>
            </dl>
          </section>
        );
      })}
    </div>
  );
}
