// Overview widget "Environmental Status" (spec section 2): verdicts against the alert thresholds from
// settings (loaded on this screen); thresholds themselves are not shown.
import { readingsBySensor, useLatestReadings } from '../../api/queries.ts';
import { useAlertThresholds } from '../../api/sensors.ts';
import { StaleNote } from '../../components/DataState.tsx';
import { lightVerdict, rangeVerdict, soilVerdict, waterVerdict } from '../../sensors/readings-view.ts';
import '../sensors/sensors.css';

export function EnvironmentalStatus() {
  const thresholds = useAlertThresholds();
  const readings = useLatestReadings();
  const bySensor = readingsBySensor(readings.data);
  const climate = bySensor.DHT11;
  const rows = [
    { name: 'Temperature', verdict: rangeVerdict(climate?.temperature, thresholds?.temperature) },
    { name: 'Humidity', verdict: rangeVerdict(climate?.humidity, thresholds?.humidity) },
    { name: 'Light', verdict: lightVerdict(bySensor.LDR?.lightIntensity, thresholds) },
    { name: 'Soil Moisture', verdict: soilVerdict(bySensor.SOIL_MOISTURE?.soilMoisture) },
    { name: 'Water Tank', verdict: waterVerdict(bySensor.WATER_LEVEL?.waterLevel, thresholds) },
  ];
  return (
    <section className="card" data-testid="environmental-status">
      <h3>Environmental Status</h3>
      <StaleNote query={readings} />
      <ul className="env-status">
        {rows.map(({ name, verdict }) => (
          <li key={name}>
            <span>{name}</span>
            <span className={`env-verdict ${verdict ? (verdict.ok ? 'env-ok' : 'env-bad') : 'muted'}`}>{verdict?.label ?? '---'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
