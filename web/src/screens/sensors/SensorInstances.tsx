// The configured sensors one by one: several of a kind may serve one zone, and each shows its own
// health, last reading and values with the datasheet's ± accuracy, so a grower sees which one failed
// while the zone goes on, and how far a value can be trusted.
import { QUANTITIES, SENSOR_KINDS } from '../../../../common/catalogue.ts';
import type { SensorInstance } from '../../../../server/contract/reading.ts';
import { useSensorInstances } from '../../api/queries.ts';
import { formatTimestamp } from '../../format.ts';
import { sensorName } from '../../names.ts';
import { formatQuantity } from '../../sensors/quantities.ts';

const STATUS_TEXT: Record<SensorInstance['status'], string> = { ok: 'OK', stale: 'Stale', fault: 'Fault' };

function Values({ instance }: { instance: SensorInstance }) {
  // A faulted sensor's last values are history, not a reading: none is drawn.
  if (instance.status === 'fault') return <span className="muted">no value ({instance.lastError ?? 'not answering'})</span>;
  return (
    <ul className="instance-values">
      {instance.quantities.map((q) => {
        const { field, unit, label } = QUANTITIES[q];
        const value = instance.values[q];
        const accuracy = instance.accuracy[q];
        return (
          <li key={q}>
            <span className="muted">{label}</span>{' '}
            <strong>{value === undefined ? '---' : `${formatQuantity(field, value)} ${unit}`}</strong>
            {value !== undefined && accuracy !== undefined && <span className="muted"> ±{formatQuantity(field, accuracy)}</span>}
          </li>
        );
      })}
    </ul>
  );
}

export function SensorInstances() {
  const instances = useSensorInstances();
  const list = instances.data ?? [];
  return (
    <section className="card" data-testid="sensor-instances">
      <h2>Sensors</h2>
      {instances.isError && list.length === 0 && <p className="muted">Could not load the sensor list.</p>}
      {!instances.isError && list.length === 0 && <p className="muted">{instances.isLoading ? 'Loading sensors...' : 'No sensors are configured.'}</p>}
      <ul className="instance-list">
        {list.map((instance) => (
          <li key={instance.sensorId} className="instance-row" data-testid={`instance-${instance.sensorId}`}>
            <div className="instance-head">
              <strong>{instance.name}</strong>
              <span className={`badge instance-status-${instance.status}`} data-testid={`instance-status-${instance.sensorId}`}>
                {STATUS_TEXT[instance.status]}
              </span>
            </div>
            <div className="muted instance-meta">
              {SENSOR_KINDS[instance.kind].label} · {sensorName(instance.zone)} · last reading{' '}
              {instance.lastReadingAt ? formatTimestamp(instance.lastReadingAt) : 'never'}
            </div>
            <Values instance={instance} />
          </li>
        ))}
      </ul>
    </section>
  );
}
