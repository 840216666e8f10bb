// 'Alert Configuration': the thresholds from settings, read-only; they are edited in Settings. CO2 High
// is listed when a configured sensor measures CO2, or when a threshold is stored (as in Settings).
import { Link } from 'react-router';
import { QUANTITIES } from '../../../../common/catalogue.ts';
import { useAlertThresholds } from '../../api/alerts.ts';
import { useMeasuredQuantities } from '../../sensors/measured-quantities.ts';

function show(value: number | null | undefined, unit: string): string {
  return value === null || value === undefined ? 'Not set' : `${value} ${unit}`;
}

export function AlertConfiguration() {
  const t = useAlertThresholds().data;
  const measured = useMeasuredQuantities();
  const rows: Array<[string, number | null | undefined, string]> = [
    ['Temperature High', t?.temperature.high, '°C'],
    ['Temperature Low', t?.temperature.low, '°C'],
    ['Humidity High', t?.humidity.high, '%'],
    ['Humidity Low', t?.humidity.low, '%'],
    ['Soil Moisture Low', t?.soilMoisture.low, '%'],
    ['Light Level Low', t?.lightLevel.low, 'lux'],
    ['Water Level Low', t?.waterLevel?.low, 'cm'],
  ];
  const co2High = t?.co2?.high;
  if (measured.has('co2Ppm') || typeof co2High === 'number') rows.push([`${QUANTITIES.co2Ppm.label} High`, co2High, QUANTITIES.co2Ppm.unit]);
  return (
    <section className="card" data-testid="alert-configuration">
      <h3 className="card-header">Alert Configuration</h3>
      <dl className="threshold-list">
        {rows.map(([label, value, unit]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{show(value, unit)}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">
        These thresholds are read-only here. To configure alert thresholds, go to <Link to="/dashboard/settings">Settings</Link>.
      </p>
    </section>
  );
}
