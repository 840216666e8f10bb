// Per-sensor detail cards (docs/product.md §2): each field to one decimal with unit, Status and Last
// Reading. The Status is the sensor's health (online, stale, fault, offline: sensors/sensor-health.ts);
// values are shown only while it is online.
import type { SensorType } from '../../../../server/contract/reading.ts';
import { formatTimestamp } from '../../format.ts';
import { sensorName } from '../../names.ts';
import { toUnit, unitSymbol, useTemperatureUnit } from '../../units.ts';
import type { ReadingField } from '../../sensors/readings-view.ts';
import { useSensorHealth } from '../../sensors/useSensorHealth.ts';

const DETAILS: Array<{ sensorType: SensorType; fields: Array<{ field: ReadingField; label: string; unit: string }> }> = [
  {
    sensorType: 'DHT11',
    fields: [
      { field: 'temperature', label: 'Temperature', unit: '°C' },
      { field: 'humidity', label: 'Humidity', unit: '%' },
    ],
  },
  { sensorType: 'LDR', fields: [{ field: 'lightIntensity', label: 'Light Intensity', unit: 'lux' }] },
  { sensorType: 'SOIL_MOISTURE', fields: [{ field: 'soilMoisture', label: 'Soil Moisture', unit: '%' }] },
];

export function SensorDetailCards() {
  const temperatureUnit = useTemperatureUnit();
  const { health, bySensor, trusted } = useSensorHealth();
  return (
    <div className="grid grid-3">
      {DETAILS.map(({ sensorType, fields }) => {
        const reading = trusted[sensorType];
        const status = health[sensorType].state;
        const lastAt = bySensor[sensorType]?.timestamp;
        return (
          <section key={sensorType} className="card detail-card" data-testid={`sensor-detail-${sensorType}`}>
            <h3>{sensorName(sensorType)}</h3>
            <dl>
              {fields.map(({ field, label, unit }) => (
                <div key={field} style={{ display: 'contents' }}>
                  <dt>{label}</dt>
                  <dd>
                    {reading?.[field] === undefined
                      ? '---'
                      : field === 'temperature'
                        ? `${toUnit(reading[field]!, temperatureUnit).toFixed(1)} ${unitSymbol(temperatureUnit)}`
                        : `${reading[field]!.toFixed(1)} ${unit}`}
                  </dd>
                </div>
              ))}
              <dt>Status</dt>
              <dd className={`status-${status}`} data-testid={`status-${sensorType}`}>
                {status}
              </dd>
              <dt>Last Reading</dt>
              <dd>{lastAt ? formatTimestamp(lastAt) : 'Never'}</dd>
            </dl>
          </section>
        );
      })}
    </div>
  );
}
