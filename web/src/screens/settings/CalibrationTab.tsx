// Calibration tab (admins; docs/irrigation.md, "Calibration"): a guided two-step for each soil probe
// (dry air, then water, each with the live raw count) and a reference reading for each LDR. Applied from
// the next reading; stored history keeps what was read.
import { useState } from 'react';
import type { SensorCalibrationView } from '../../../../server/contract/calibration.ts';
import { useCalibration, useCalibrationCommands } from '../../api/calibration.ts';
import { useAction } from './hooks.ts';
import { SettingsLoadState } from './SettingsLoadState.tsx';

export function CalibrationTab() {
  const query = useCalibration();
  if (!query.data) return <SettingsLoadState failed={query.isError} />;
  if (query.data.length === 0) return <p className="muted">No ADC sensor (soil probe or LDR) is configured.</p>;
  return (
    <div className="calibration" data-testid="calibration-tab">
      <p className="muted">Calibration applies from the next reading on; readings already stored keep their values.</p>
      {query.data.map((sensor) => (sensor.kind === 'ADS1115_SOIL' ? <SoilSteps key={sensor.sensorId} sensor={sensor} /> : <LightReference key={sensor.sensorId} sensor={sensor} />))}
    </div>
  );
}

const rawText = (raw: number | null) => (raw === null ? 'no reading yet' : String(raw));

function SoilSteps({ sensor }: { sensor: SensorCalibrationView }) {
  const [dry, setDry] = useState<number | null>(null);
  const [wet, setWet] = useState<number | null>(null);
  const commands = useCalibrationCommands();
  const { busy, run } = useAction();
  const same = dry !== null && wet !== null && dry === wet;
  return (
    <fieldset className="automation-group" data-testid={`calibrate-${sensor.sensorId}`}>
      <legend>{sensor.name}</legend>
      <p>
        Now: raw <strong data-testid="live-raw">{rawText(sensor.raw)}</strong>
        {sensor.value !== null && ` (${sensor.value} %)`} · in force: dry {sensor.dryRaw}, wet {sensor.wetRaw} ({sensor.calibrated ? 'calibrated here' : 'from the config'})
      </p>
      <ol className="calibration-steps">
        <li>
          Take the probe out of the soil, wipe it and hold it in dry air until the raw value settles.{' '}
          <button type="button" className="btn btn-secondary btn-sm" disabled={sensor.raw === null} onClick={() => setDry(sensor.raw)}>
            Use as dry
          </button>{' '}
          {dry !== null && <span data-testid="dry-raw">dry = {dry}</span>}
        </li>
        <li>
          Put it in a glass of water up to its line and wait again.{' '}
          <button type="button" className="btn btn-secondary btn-sm" disabled={sensor.raw === null || dry === null} onClick={() => setWet(sensor.raw)}>
            Use as wet
          </button>{' '}
          {wet !== null && <span data-testid="wet-raw">wet = {wet}</span>}
        </li>
      </ol>
      {same && <p className="field-error">Dry and wet read the same: the probe did not see the water. Try step 2 again.</p>}
      <div className="row">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={busy || dry === null || wet === null || same}
          onClick={() => void run(() => commands.setSoil(sensor.sensorId, dry!, wet!), `${sensor.name} calibrated`, 'Failed to calibrate')}
        >
          Save calibration
        </button>
        {sensor.calibrated && (
          <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => void run(() => commands.reset(sensor.sensorId), 'Back to the config calibration', 'Failed to reset')}>
            Use the config's
          </button>
        )}
      </div>
    </fieldset>
  );
}

function LightReference({ sensor }: { sensor: SensorCalibrationView }) {
  const [luxText, setLuxText] = useState('');
  const commands = useCalibrationCommands();
  const { busy, run } = useAction();
  const lux = Number(luxText);
  const valid = luxText.trim() !== '' && Number.isFinite(lux) && lux > 0;
  return (
    <fieldset className="automation-group" data-testid={`calibrate-${sensor.sensorId}`}>
      <legend>{sensor.name}</legend>
      <p>
        Now: raw <strong>{rawText(sensor.raw)}</strong>
        {sensor.value !== null && ` (${sensor.value} lux)`} · curve × {(sensor.luxScale ?? 1).toFixed(2)} ({sensor.calibrated ? 'calibrated here' : 'from the config'})
      </p>
      <label className="field">
        A light meter beside the LDR reads (lux)
        <input name="referenceLux" type="number" min={1} step={1} value={luxText} onChange={(e) => setLuxText(e.target.value)} />
        <span className="field-hint">In steady light (not passing clouds): the whole curve is scaled to match.</span>
      </label>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={busy || !valid || sensor.raw === null}
          onClick={() => void run(() => commands.setLight(sensor.sensorId, lux), `${sensor.name} calibrated`, 'Failed to calibrate')}
        >
          Calibrate
        </button>
        {sensor.calibrated && (
          <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => void run(() => commands.reset(sensor.sensorId), 'Back to the config calibration', 'Failed to reset')}>
            Use the config's
          </button>
        )}
      </div>
    </fieldset>
  );
}
