// Overview widget "Environmental Status" (docs/product.md §2): verdicts against the alert thresholds from
// settings (loaded on this screen); thresholds themselves are not shown. A verdict is drawn only from a
// sensor that is online: a faulted or silent one says so instead of "Optimal".
import type { SensorType } from '../../../../server/contract/reading.ts';
import { useAlertThresholds } from '../../api/sensors.ts';
import { useLatestReadings } from '../../api/queries.ts';
import { StaleNote } from '../../components/DataState.tsx';
import { healthWord } from '../../sensors/sensor-health.ts';
import { lightVerdict, rangeVerdict, soilVerdict, waterVerdict } from '../../sensors/readings-view.ts';
import { useSensorHealth } from '../../sensors/useSensorHealth.ts';
import '../sensors/sensors.css';

export function EnvironmentalStatus() {
  const thresholds = useAlertThresholds();
  const readings = useLatestReadings();
  const { health, trusted } = useSensorHealth();
  const climate = trusted.DHT11;
  const rows: Array<{ name: string; sensor: SensorType; verdict: { label: string; ok: boolean } | null }> = [
    { name: 'Temperature', sensor: 'DHT11', verdict: rangeVerdict(climate?.temperature, thresholds?.temperature) },
    { name: 'Humidity', sensor: 'DHT11', verdict: rangeVerdict(climate?.humidity, thresholds?.humidity) },
    { name: 'Light', sensor: 'LDR', verdict: lightVerdict(trusted.LDR?.lightIntensity, thresholds) },
    { name: 'Soil Moisture', sensor: 'SOIL_MOISTURE', verdict: soilVerdict(trusted.SOIL_MOISTURE?.soilMoisture) },
    { name: 'Water Tank', sensor: 'WATER_LEVEL', verdict: waterVerdict(trusted.WATER_LEVEL?.waterLevel, thresholds) },
  ];
  return (
    <section className="card" data-testid="environmental-status">
      <h3>Environmental Status</h3>
      <StaleNote query={readings} />
      <ul className="env-status">
        {rows.map(({ name, sensor, verdict }) => {
          const state = health[sensor].state;
          const lost = state === 'fault' || state === 'stale';
          return (
            <li key={name} data-testid={`env-${sensor}`}>
              <span>{name}</span>
              {lost ? (
                <span className="env-verdict env-bad">{healthWord(state)}</span>
              ) : (
                <span className={`env-verdict ${verdict ? (verdict.ok ? 'env-ok' : 'env-bad') : 'muted'}`}>{verdict?.label ?? '---'}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
