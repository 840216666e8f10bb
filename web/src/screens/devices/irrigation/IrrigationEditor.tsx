// The irrigation part of a pump's Automation Settings (docs/irrigation.md): water by the soil in pulses
// with soaks between them, within a daily budget and an optional window, and the pump's flow rate.
import type { IrrigationProgram } from '../../../../../server/contract/device.ts';
import { programStatement, type IrrigationForm } from './irrigation-form.ts';

interface Props {
  form: IrrigationForm;
  onChange(next: IrrigationForm): void;
  /** The program as the form says it, null when off, or the form's problem. */
  program: IrrigationProgram | null | string;
  flow: number | null | string;
}

const FIELDS: Array<{ key: keyof IrrigationForm; label: string; hint: string; step: number }> = [
  { key: 'startBelowPct', label: 'Start below (%)', hint: 'Soil moisture that starts a cycle', step: 1 },
  { key: 'targetPct', label: 'Target (%)', hint: 'Stop once the probe reads this', step: 1 },
  { key: 'pulseSeconds', label: 'Pulse (s)', hint: 'Pump run per pulse', step: 1 },
  { key: 'soakMinutes', label: 'Soak (min)', hint: 'Wait between pulses so water soaks in', step: 1 },
  { key: 'maxPulses', label: 'Pulses per cycle', hint: 'No rise of 2 points after these: alarm and pause', step: 1 },
  { key: 'maxRunSecondsPerDay', label: 'Daily run budget (s)', hint: 'Pump time per day, all sources', step: 1 },
];

export function IrrigationEditor({ form, onChange, program, flow }: Props) {
  const set = (patch: Partial<IrrigationForm>) => onChange({ ...form, ...patch });
  const input = (key: keyof IrrigationForm, label: string, hint: string, extra: { step?: number; type?: string; placeholder?: string } = {}) => (
    <label className="field" key={key}>
      {label}
      <input
        name={`irrigation-${key}`}
        type={extra.type ?? 'number'}
        step={extra.step}
        placeholder={extra.placeholder}
        value={form[key] as string}
        onChange={(e) => set({ [key]: e.target.value })}
      />
      <span className="field-hint">{hint}</span>
    </label>
  );
  return (
    <fieldset className="automation-group" data-testid="irrigation-editor">
      <label className="checkbox">
        <input type="checkbox" name="irrigationOn" checked={form.on} onChange={(e) => set({ on: e.target.checked })} />
        Water by the soil (pulses and soaks)
      </label>
      {form.on && (
        <>
          <div className="irrigation-grid">
            {FIELDS.map((f) => input(f.key, f.label, f.hint, { step: f.step }))}
            {input('windowFrom', 'Window from', 'HH:MM, empty: any time', { type: 'time' })}
            {input('windowTo', 'Window to', 'May cross midnight', { type: 'time' })}
            {input('fallbackEveryHours', 'Probe lost: pulse every (h)', 'Empty: no watering without the probe', { step: 1, placeholder: 'Off' })}
            {input('flowLitresPerMinute', 'Flow (L/min)', 'For litres per day; empty: the wiring config', { step: 0.1, placeholder: 'Unknown' })}
          </div>
          <p className="field-hint" data-testid="irrigation-statement">
            {typeof program === 'string' ? program : typeof flow === 'string' ? flow : program ? programStatement(program, flow) : null}
          </p>
          <p className="field-hint">With a program the pump follows it instead of the soil-moisture threshold.</p>
        </>
      )}
    </fieldset>
  );
}
