// Simulator tab (simulator mode, admins): the model's true values beside what the sensors report,
// sensor faults to inject and the tank to drain or refill. How a grower rehearses a failure and watches
// the safety rules act (docs/decisions.md, Climate metrics, automation and the simulator).
import { useState, type FormEvent } from 'react';
import type { SensorType } from '../../../../server/contract/reading.ts';
import type { SimulatedFault } from '../../../../server/contract/simulator.ts';
import { useSimulatorCommands, useSimulatorState } from '../../api/automation.ts';
import { readingsBySensor, useLatestReadings } from '../../api/queries.ts';
import { useAction } from './hooks.ts';
import { SettingsLoadState } from './SettingsLoadState.tsx';

const SENSOR_LABELS: Record<SensorType, string> = {
  DHT11: 'Temperature & Humidity (DHT11)',
  LDR: 'Light (LDR)',
  SOIL_MOISTURE: 'Soil Moisture',
  WATER_LEVEL: 'Water Level (HC-SR04)',
};
const FAULT_LABELS: Record<SimulatedFault, string> = { none: 'Working', silent: 'Silent', stuck: 'Stuck' };

const show = (value: number | undefined | null, digits: number) => (typeof value === 'number' ? value.toFixed(digits) : '---');

export function SimulatorTab() {
  const state = useSimulatorState(true);
  const bySensor = readingsBySensor(useLatestReadings().data);
  const commands = useSimulatorCommands();
  const { busy, run } = useAction();
  const [levelText, setLevelText] = useState('');

  if (!state.data) return <SettingsLoadState failed={state.isError} />;
  const s = state.data;

  const rows = [
    { name: 'Temperature (°C)', truth: show(s.inside.temperatureC, 1), sensor: show(bySensor.DHT11?.temperature, 1) },
    { name: 'Humidity (%)', truth: show(s.inside.humidityPct, 1), sensor: show(bySensor.DHT11?.humidity, 1) },
    { name: 'VPD (kPa)', truth: show(s.inside.vpdKpa, 2), sensor: show(bySensor.DHT11?.vpdKpa, 2) },
    { name: 'Dew point (°C)', truth: show(s.inside.dewPointC, 1), sensor: show(bySensor.DHT11?.dewPointC, 1) },
    { name: 'Light (lux)', truth: show(s.inside.lightLux, 0), sensor: show(bySensor.LDR?.lightIntensity, 0) },
    { name: 'Soil moisture (%)', truth: show(s.inside.soilMoisturePct, 1), sensor: show(bySensor.SOIL_MOISTURE?.soilMoisture, 1) },
    { name: 'Tank level (cm)', truth: show(s.tank.levelCm, 1), sensor: show(bySensor.WATER_LEVEL?.waterLevel, 1) },
  ];

  function setTank(event: FormEvent) {
    event.preventDefault();
    void run(() => commands.setTank(Number(levelText)), `Tank set to ${levelText} cm`, 'Failed to set the tank level');
  }

  return (
    <div className="form" data-testid="simulator-panel">
      <p className="field-hint">
        Simulated time {new Date(s.at).toLocaleString()} · outside {s.outside.temperatureC.toFixed(1)} °C, {s.outside.humidityPct.toFixed(0)} %RH, cloud{' '}
        {(s.outside.cloudCover * 100).toFixed(0)} % · running: {s.activeEffects.length ? s.activeEffects.join(', ') : 'nothing'}
        {s.inside.condensing ? ' · water is condensing on the glazing' : ''}
      </p>
      <table className="dli-table" data-testid="simulator-values">
        <thead>
          <tr>
            <th>Quantity</th>
            <th>True value</th>
            <th>Sensor reports</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <td>{r.name}</td>
              <td>{r.truth}</td>
              <td>{r.sensor}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>Sensor faults</h3>
      {s.faults.map(({ sensor, fault }) => (
        <label key={sensor} className="field">
          {SENSOR_LABELS[sensor]}
          <select
            aria-label={`${SENSOR_LABELS[sensor]} fault`}
            value={fault}
            disabled={busy}
            onChange={(e) => {
              const next = e.target.value as SimulatedFault;
              void run(() => commands.setFault(sensor, next), `${sensor}: ${FAULT_LABELS[next]}`, 'Failed to change the fault');
            }}
          >
            {(Object.keys(FAULT_LABELS) as SimulatedFault[]).map((f) => (
              <option key={f} value={f}>
                {FAULT_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
      ))}

      <h3>Water tank</h3>
      <form className="input-with-button" onSubmit={setTank}>
        <label className="field">
          Tank level (cm, 0-{s.tank.depthCm})
          <input type="number" name="levelCm" min={0} max={s.tank.depthCm} step={1} value={levelText} placeholder={s.tank.levelCm.toFixed(0)}
            onChange={(e) => setLevelText(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-secondary" disabled={busy || levelText === ''}>
          Set Level
        </button>
      </form>
    </div>
  );
}
