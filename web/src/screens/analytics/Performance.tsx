// Sensor Performance (per sensor type) and Device Performance (per device type) lists.
import type { DeviceStats } from '../../../../server/contract/device.ts';
import type { SensorStats } from '../../api/analytics.ts';
import { formatLight, formatOneDecimal } from '../../format.ts';
import { deviceTypeName, sensorName } from '../../names.ts';

export function SensorPerformance({ stats }: { stats: readonly SensorStats[] }) {
  return (
    <section className="card">
      <h2 className="card-header">Sensor Performance</h2>
      {stats.length === 0 ? (
        <p className="empty-state">No sensor data available</p>
      ) : (
        <ul className="analytics-list" data-testid="sensor-performance">
          {stats.map((s) => (
            <li key={s._id}>
              <strong>{sensorName(s._id)}</strong>
              <span>Total readings: {s.count}</span>
              {s.avgTemperature !== null && <span>Avg temperature: {formatOneDecimal(s.avgTemperature)}°C</span>}
              {s.avgHumidity !== null && <span>Avg humidity: {formatOneDecimal(s.avgHumidity)}%</span>}
              {s.avgLightIntensity !== null && <span>Avg light: {formatLight(s.avgLightIntensity)} lux</span>}
              {s.avgSoilMoisture !== null && <span>Avg soil moisture: {formatOneDecimal(s.avgSoilMoisture)}%</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function DevicePerformance({ stats }: { stats: DeviceStats | null }) {
  const types = stats?.byType ?? [];
  return (
    <section className="card">
      <h2 className="card-header">Device Performance</h2>
      {types.length === 0 ? (
        <p className="empty-state">No device data available</p>
      ) : (
        <ul className="analytics-list" data-testid="device-performance">
          {types.map((t) => (
            <li key={t._id}>
              <strong>{deviceTypeName(t._id)}</strong>
              <span>Total: {t.totalDevices}</span>
              <span>Active: {t.activeDevices}</span>
              <span>Auto mode: {t.autoModeDevices}</span>
              <span>Power: {formatOneDecimal(t.totalPowerConsumption)} W</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
