// "Follow the climate program" in the automation dialog (docs/climate.md): which target the device
// follows and, for a second machine of the same kind, stage 2 (it joins when the first cannot keep up).
import type { AutomationRules, DeviceType } from '../../../../../server/contract/device.ts';
import type { ClimateFollow } from '../../../../../server/contract/climate.ts';

export interface FollowForm {
  follow: ClimateFollow | '';
  stage: 1 | 2;
}

export const followFormOf = (rules: AutomationRules): FollowForm => ({ follow: rules.follow ?? '', stage: rules.stage ?? 1 });

/** The rule fields the form sets: follow null when not following (stage back to 1). */
export const followRules = (form: FollowForm): Pick<AutomationRules, 'follow' | 'stage'> =>
  form.follow === '' ? { follow: null, stage: 1 } : { follow: form.follow, stage: form.stage };

const CHOICES: Record<ClimateFollow, string> = {
  heat: 'Heat below the heat target',
  vent: 'Vent above the vent target',
  cool: 'Cool above the vent target',
  dehumidify: 'Dehumidify above the humidity target',
  light: "Lights for the grow stage's photoperiod",
};

export function FollowProgram({ deviceType, form, onChange }: { deviceType: DeviceType; form: FollowForm; onChange(form: FollowForm): void }) {
  return (
    <div className="settings-pair" data-testid="follow-program">
      <label className="field">
        Follow the climate program
        <select name="follow" value={form.follow} onChange={(e) => onChange({ ...form, follow: e.target.value as FollowForm['follow'] })}>
          <option value="">No: only the rules below</option>
          {(Object.keys(CHOICES) as ClimateFollow[]).map((f) => (
            <option key={f} value={f}>
              {CHOICES[f]}
            </option>
          ))}
        </select>
        <span className="field-hint">
          {deviceType === 'SERVO' && form.follow === 'vent' ? 'The window opens in proportion: fully 4 °C above the vent target.' : 'The targets come from Climate Program; the rules below still act beside it.'}
        </span>
      </label>
      {form.follow !== '' && form.follow !== 'light' && (
        <label className="field">
          Stage
          <select name="stage" value={form.stage} onChange={(e) => onChange({ ...form, stage: Number(e.target.value) as 1 | 2 })}>
            <option value={1}>1: first to act</option>
            <option value={2}>2: joins 2 °C past the target</option>
          </select>
        </label>
      )}
    </div>
  );
}
