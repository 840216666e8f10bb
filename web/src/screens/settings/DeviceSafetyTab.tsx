// Device Safety tab: the heater cut-off (docs/decisions.md, Safety beyond the rules) beside the other safety
// limits it works with. Device safety settings are an admin's to change (PUT /api/settings/:id/devices).
// The cut-off is shown in the chosen unit (°C/°F), remembered with the form.
import type { FormEvent } from 'react';
import type { Settings } from '../../../../server/contract/settings.ts';
import { api } from '../../api/client.ts';
import { useAction, useSettingsForm } from './hooks.ts';
import { SettingsLoadState } from './SettingsLoadState.tsx';
import { SubmitRow } from './SubmitRow.tsx';
import { fromUnit, getTemperatureUnit, toUnit, unitSymbol, type TemperatureUnit } from '../../units.ts';

interface Form {
  /** In `unit`. */
  heaterCutoff: string;
  unit: TemperatureUnit;
}

const toForm = ({ deviceSettings: d }: Settings): Form => {
  const unit = getTemperatureUnit();
  return { heaterCutoff: String(Math.round(toUnit(d.heaterCutoffC, unit) * 10) / 10), unit };
};

export function DeviceSafetyTab() {
  const { greenhouseId: id, editable: isAdmin, reason, query, form, setForm, adopt } = useSettingsForm(toForm, 'admin');
  const { busy, run } = useAction();
  const limits = query.data?.deviceSettings;

  function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    // A number as a number: the server names the field when it is out of range.
    const deviceSettings = { heaterCutoffC: fromUnit(Number(form.heaterCutoff), form.unit) };
    void run(
      async () => adopt(await api.put<Settings>(`/api/settings/${id}/devices`, { deviceSettings })),
      'Device safety settings updated successfully',
      'Failed to update device safety settings',
    );
  }

  if (!form || !limits) return <SettingsLoadState failed={query.isError} />;
  return (
    <form className="form" onSubmit={save}>
      <label className="field">
        Heater Cut-off ({unitSymbol(form.unit)})
        <input type="number" name="heaterCutoffC" step={0.5} value={form.heaterCutoff} disabled={!isAdmin}
          onChange={(e) => setForm({ ...form, heaterCutoff: e.target.value })} />
        <span className="field-hint">Above this air temperature every heater is switched off and may not be switched on, by people or rules.</span>
      </label>
      <dl className="safety-limits">
        <dt>Pump run budget</dt>
        <dd>
          {limits.pumpMaxRunSeconds} s in any {limits.pumpRunWindowMinutes} min
        </dd>
        <dt>Heater switched on by hand</dt>
        <dd>off after {limits.heaterMaxRunMinutes} min</dd>
        <dt>Switch-ons per output</dt>
        <dd>at most {limits.maxSwitchesPerHour} an hour</dd>
        <dt>Tank low level (pump lockout)</dt>
        <dd>{limits.tankLowLevelCm} cm</dd>
        <dt>Minimum on / off time</dt>
        <dd>
          {limits.minOnSeconds} s / {limits.minOffSeconds} s
        </dd>
      </dl>
      {reason && (
        <p className="settings-warning" data-testid="role-reason">
          {reason}
        </p>
      )}
      <SubmitRow label="Save Settings" disabled={busy || !isAdmin} />
    </form>
  );
}
