// Alert Thresholds tab: empty means unset (sent as null). Each field takes the range the gateway accepts
// (common/catalogue.ts): humidity and soil 0-100, light 0-200,000 lux, water 0-400 cm.
// Temperatures in the chosen unit (°C/°F); the form remembers the unit it was filled in, so a change of
// unit elsewhere never saves °F numbers as °C. CO2 High shows only when a configured sensor measures CO2
// (or a threshold is already stored, so it can be seen and cleared): a grower without a CO2 sensor is
// not asked for a threshold that can never fire; a hidden field is not sent, so it is left as stored.
import type { FormEvent } from 'react';
import { QUANTITIES, type QuantityKey } from '../../../../common/catalogue.ts';
import type { AlertThresholds, Settings } from '../../../../server/contract/settings.ts';
import { api } from '../../api/client.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { useConfirm } from '../../components/confirm/ConfirmProvider.tsx';
import { roleReason } from '../../auth/permissions.ts';
import { useAction, useSettingsForm } from './hooks.ts';
import { SettingsLoadState } from './SettingsLoadState.tsx';
import { fromUnit, getTemperatureUnit, toUnit, unitSymbol, type TemperatureUnit } from '../../units.ts';
import { useMeasuredQuantities } from '../../sensors/measured-quantities.ts';

type Field = {
  group: keyof AlertThresholds;
  bound: 'high' | 'low';
  label: string;
  min?: number;
  max?: number;
  step: string;
  /** Shown only when a configured sensor measures this quantity (or a value is stored). */
  onlyWhenMeasured?: QuantityKey;
};
/** The range the gateway accepts for a quantity's threshold (common/catalogue.ts). */
const range = (q: 'humidityPct' | 'soilMoisturePct' | 'lightLux' | 'waterLevelCm' | 'co2Ppm') => ({ min: QUANTITIES[q].thresholds.minimum, max: QUANTITIES[q].thresholds.maximum });
const co2 = QUANTITIES.co2Ppm;
/** In °C; the inputs show it in the chosen unit. */
const temperatureRange = { min: QUANTITIES.temperatureC.thresholds.minimum, max: QUANTITIES.temperatureC.thresholds.maximum };
const FIELDS: Field[] = [
  { group: 'temperature', bound: 'high', label: 'Temperature High (°C)', step: '0.1' },
  { group: 'temperature', bound: 'low', label: 'Temperature Low (°C)', step: '0.1' },
  { group: 'humidity', bound: 'high', label: 'Humidity High (%)', ...range('humidityPct'), step: '0.1' },
  { group: 'humidity', bound: 'low', label: 'Humidity Low (%)', ...range('humidityPct'), step: '0.1' },
  { group: 'soilMoisture', bound: 'low', label: 'Soil Moisture Low (%)', ...range('soilMoisturePct'), step: '0.1' },
  { group: 'lightLevel', bound: 'low', label: 'Light Level Low (lux)', ...range('lightLux'), step: '1' },
  { group: 'waterLevel', bound: 'low', label: 'Water Level Low (cm)', ...range('waterLevelCm'), step: '0.1' },
  {
    group: 'co2', bound: 'high', label: `${co2.label} High (${co2.unit})`, step: '1',
    ...range('co2Ppm'), onlyWhenMeasured: 'co2Ppm',
  },
];
type Form = Record<string, string> & { unit: TemperatureUnit };
const isTemperature = (f: Field) => f.group === 'temperature';
const key = (f: Field) => `${f.group}.${f.bound}`;

function toForm({ alertThresholds: t }: Settings): Form {
  const unit = getTemperatureUnit();
  const bounds = (g: keyof AlertThresholds) => t[g] as Partial<Record<'high' | 'low', number | null>>;
  const shown = (f: Field) => {
    const value = bounds(f.group)[f.bound];
    if (typeof value !== 'number') return '';
    return isTemperature(f) ? String(Math.round(toUnit(value, unit) * 10) / 10) : String(value);
  };
  return { ...Object.fromEntries(FIELDS.map((f) => [key(f), shown(f)])), unit };
}

/** Only the fields shown are sent (a partial update): a hidden one keeps its stored value. */
function fromForm(form: Form, fields: readonly Field[]): Partial<AlertThresholds> {
  const value = (f: Field) => {
    if (!form[key(f)]?.trim()) return null;
    const number = Number(form[key(f)]);
    return isTemperature(f) ? fromUnit(number, form.unit) : number;
  };
  const result: Record<string, Record<string, number | null>> = {};
  for (const f of fields) (result[f.group] ??= {})[f.bound] = value(f);
  return result as unknown as Partial<AlertThresholds>;
}

export function ThresholdsTab() {
  const { greenhouseId: id, editable, reason, query, form, setForm, adopt } = useSettingsForm(toForm, 'operator');
  // Thresholds are the operator's; resetting every setting (system and safety too) is the admin's.
  const resetReason = roleReason(useAuth().user, 'admin');
  const { busy, run } = useAction();
  const confirm = useConfirm();
  const measured = useMeasuredQuantities();
  const stored = query.data?.alertThresholds;
  const isStored = (f: Field) => typeof (stored?.[f.group] as Partial<Record<'high' | 'low', number | null>> | undefined)?.[f.bound] === 'number';
  const fields = FIELDS.filter((f) => !f.onlyWhenMeasured || measured.has(f.onlyWhenMeasured) || isStored(f));

  function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    void run(
      async () => adopt(await api.put<Settings>(`/api/settings/${id}/thresholds`, { alertThresholds: fromForm(form, fields) })),
      'Alert thresholds updated successfully',
      'Failed to update alert thresholds',
    );
  }

  async function reset() {
    const message = 'Are you sure you want to reset all settings to defaults? This action cannot be undone.';
    if (!(await confirm({ title: 'Reset settings', message, confirmLabel: 'Reset All', danger: true }))) return;
    void run(async () => adopt(await api.post<Settings>(`/api/settings/${id}/reset`)), 'Settings reset to defaults', 'Failed to reset settings');
  }

  async function reload() {
    const result = await query.refetch();
    if (result.data) setForm(toForm(result.data));
  }

  if (!form) return <SettingsLoadState failed={query.isError} />;
  return (
    <form className="form" onSubmit={save}>
      <div className="settings-pair">
        {fields.map((f) => (
          <label key={key(f)} className="field">
            {isTemperature(f) ? f.label.replace('(°C)', `(${unitSymbol(form.unit)})`) : f.label}
            <input
              type="number"
              name={key(f)}
              step={f.step}
              min={isTemperature(f) ? Math.ceil(toUnit(temperatureRange.min, form.unit)) : f.min}
              max={isTemperature(f) ? Math.floor(toUnit(temperatureRange.max, form.unit)) : f.max}
              value={form[key(f)]}
              placeholder="Not set"
              disabled={!editable}
              onChange={(e) => setForm({ ...form, [key(f)]: e.target.value })}
            />
          </label>
        ))}
      </div>
      <p className="settings-note">Leave a field empty to disable that alert.</p>
      {(reason ?? resetReason) && (
        <p className="settings-warning" data-testid="role-reason">
          {reason ?? 'Only an admin can reset all settings to defaults.'}
        </p>
      )}
      <div className="settings-actions">
        <button type="button" className="btn btn-secondary" onClick={reload} disabled={busy}>
          Reload
        </button>
        <button type="button" className="btn btn-danger" onClick={() => void reset()} disabled={busy || resetReason !== null}
          title={resetReason ?? undefined}>
          Reset All
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || !editable}>
          Save Thresholds
        </button>
      </div>
    </form>
  );
}
