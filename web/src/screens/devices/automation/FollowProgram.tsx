// "Follow the climate program" in the automation dialog (docs/climate.md): which target the device
// follows; for a second machine of the same kind, stage 2 (it joins when the first cannot keep up) and
// how far past the target; the roof window's proportional band; a heater's time-proportional cycle.
// Only the targets the device can act on are offered (common/climate-follow.ts, as the gateway checks).
import { FOLLOWS_BY_DEVICE_TYPE } from '../../../../../common/climate-follow.ts';
import type { AutomationRules, DeviceType } from '../../../../../server/contract/device.ts';
import type { ClimateFollow } from '../../../../../server/contract/climate.ts';

export interface FollowForm {
  follow: ClimateFollow | '';
  stage: 1 | 2;
  /** Typed numbers; blank: the default (2 °C, 4 °C) or, for the cycle, plain on/off. */
  stage2OffsetC: string;
  proportionalBandC: string;
  heatingCycleMinutes: string;
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export const followFormOf = (rules: AutomationRules): FollowForm => ({
  follow: rules.follow ?? '',
  stage: rules.stage ?? 1,
  stage2OffsetC: text(rules.stage2OffsetC),
  proportionalBandC: text(rules.proportionalBandC),
  heatingCycleMinutes: text(rules.heatingCycleMinutes),
});

/** The targets a device of this type can follow (a heater only heats, a pump follows none). */
export const followsFor = (deviceType: DeviceType): readonly ClimateFollow[] => FOLLOWS_BY_DEVICE_TYPE[deviceType];

/**
 * The rule fields the form sets (follow null when not following); the gateway checks the ranges and names
 * the field. The heating cycle goes only with 'heat' (a cycle typed before choosing another target is dropped).
 */
export function followRules(form: FollowForm): Partial<AutomationRules> {
  if (form.follow === '') return { follow: null, stage: 1, heatingCycleMinutes: null };
  const number = (s: string) => (s.trim() === '' ? undefined : Number(s));
  const cycle = form.follow === 'heat' ? (number(form.heatingCycleMinutes) ?? null) : null;
  const rules: Partial<AutomationRules> = { follow: form.follow, stage: form.stage, heatingCycleMinutes: cycle };
  const offset = number(form.stage2OffsetC);
  const band = number(form.proportionalBandC);
  if (offset !== undefined) rules.stage2OffsetC = offset;
  if (band !== undefined) rules.proportionalBandC = band;
  return rules;
}

const CHOICES: Record<ClimateFollow, string> = {
  heat: 'Heat below the heat target',
  vent: 'Vent above the vent target',
  cool: 'Cool above the vent target',
  dehumidify: 'Dehumidify above the humidity target',
  light: "Lights for the grow stage's photoperiod",
};

export function FollowProgram({ deviceType, form, onChange }: { deviceType: DeviceType; form: FollowForm; onChange(form: FollowForm): void }) {
  const set = (patch: Partial<FollowForm>) => onChange({ ...form, ...patch });
  const window = deviceType === 'SERVO' && form.follow === 'vent';
  const band = form.proportionalBandC.trim() === '' ? '4' : form.proportionalBandC;
  return (
    <div className="form" data-testid="follow-program">
      <div className="settings-pair">
        <label className="field">
          Follow the climate program
          <select name="follow" value={form.follow} onChange={(e) => set({ follow: e.target.value as FollowForm['follow'] })}>
            <option value="">No: only the rules below</option>
            {followsFor(deviceType).map((f) => (
              <option key={f} value={f}>
                {CHOICES[f]}
              </option>
            ))}
          </select>
          <span className="field-hint">
            {window ? `The window opens in proportion: fully ${band} °C above the vent target.` : 'The targets come from Climate Program; the rules below still act beside it.'}
          </span>
        </label>
        {form.follow !== '' && form.follow !== 'light' && (
          <label className="field">
            Stage
            <select name="stage" value={form.stage} onChange={(e) => set({ stage: Number(e.target.value) as 1 | 2 })}>
              <option value={1}>1: first to act</option>
              <option value={2}>2: joins past the target</option>
            </select>
          </label>
        )}
      </div>
      {form.follow !== '' && form.follow !== 'light' && (
        <div className="settings-pair">
          {form.stage === 2 && (
            <label className="field">
              Stage 2 joins at ({form.follow === 'dehumidify' ? '%' : '°C'} past the target)
              <input name="stage2OffsetC" type="number" step="any" min={0.5} max={10} placeholder="2" value={form.stage2OffsetC} onChange={(e) => set({ stage2OffsetC: e.target.value })} />
            </label>
          )}
          {window && (
            <label className="field">
              Fully open at (°C above the vent target)
              <input name="proportionalBandC" type="number" step="any" min={0.5} max={20} placeholder="4" value={form.proportionalBandC} onChange={(e) => set({ proportionalBandC: e.target.value })} />
            </label>
          )}
          {form.follow === 'heat' && (
            <>
              <label className="field">
                Heat in cycles of (minutes)
                <input name="heatingCycleMinutes" type="number" step={1} min={5} max={60} placeholder="On/off at the target" value={form.heatingCycleMinutes} onChange={(e) => set({ heatingCycleMinutes: e.target.value })} />
                <span className="field-hint">Runs a share of each cycle by how far the air is under the target, full at the band below.</span>
              </label>
              {form.heatingCycleMinutes.trim() !== '' && (
                <label className="field">
                  Full heat at (°C under the target)
                  <input name="proportionalBandC" type="number" step="any" min={0.5} max={20} placeholder="4" value={form.proportionalBandC} onChange={(e) => set({ proportionalBandC: e.target.value })} />
                </label>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
