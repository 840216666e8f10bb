// Per-sensor detail cards (spec section 2): each field to one decimal with unit, Status and Last Reading.
import type { Reading, SensorType } from '../../../../server/contract/reading.ts';
import { formatTimestamp } from '../../format.ts';
import { sensorName } from '../../names.ts';
import { toUnit, unitSymbol, useTemperatureUnit } from '../../units.ts';
import { statusOf, type ReadingField } from '../../sensors/readings-view.ts';

const DETAILS: Array<{ sensorType: SensorType; title: string; fields: Array<{ field: ReadingField; label: string; unit: string }> }> = [
  {
    sensorType: 'DHT11',
    title: sensorName('DHT11'),
    fields: [
      { field: 'temperature', label: 'Temperature', unit: '°C' },
      { field: 'humidity', label: 'Humidity', unit: '%' },
    ],
  },
  { sensorType: 'LDR', title: sensorName('LDR'), fields: [{ field: 'lightIntensity', label: 'Light Intensity', unit: 'lux' }] },
  { sensorType: 'SOIL_MOISTURE', title: sensorName('SOIL_MOISTURE'), fields: [{ field: 'soilMoisture', label: 'Soil Moisture', unit: '%' }] },
];

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
              <dd>{reading ? formatTimestamp(reading.timestamp) : 'Never'}</dd>
            </dl>
          </section>
        );
      })}
    </div>
  );
}
