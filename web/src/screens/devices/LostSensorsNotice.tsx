// On the Device Control screen: the sensors that are faulted or silent right now, since devices in auto
// mode act on them (their sensor-loss action applies). The same verdict as every other screen.
import { AlertTriangle } from 'lucide-react';
import type { SensorType } from '../../../../server/contract/reading.ts';
import { sensorName } from '../../names.ts';
import { healthWord, lastReadingWords } from '../../sensors/sensor-health.ts';
import { useSensorHealth } from '../../sensors/useSensorHealth.ts';

export function LostSensorsNotice() {
  const { health, nowMs } = useSensorHealth();
  const lost = (Object.keys(health) as SensorType[]).filter((type) => health[type].state === 'fault' || health[type].state === 'stale');
  if (lost.length === 0) return null;
  return (
    <div className="notice notice-bad" role="status" data-testid="lost-sensors">
      <AlertTriangle size={20} aria-hidden />
      <div>
        <p>
          <strong>Sensor trouble:</strong> devices in auto mode that use these readings follow their "If a sensor is lost" setting.
        </p>
        <ul className="lost-sensors">
          {lost.map((type) => (
            <li key={type}>
              {sensorName(type)}: {healthWord(health[type].state).toLowerCase()} · {lastReadingWords(health[type], nowMs)}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
