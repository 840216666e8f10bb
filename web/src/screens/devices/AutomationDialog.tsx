// Automation Settings dialog (docs/product.md §5, "Automation rules"; README "What it does"): auto mode,
// the rules of the device's type as bands ("Heat below 18 °C, stop at 20 °C") in the chosen
// temperature unit, a schedule in clock times and sun events with today's times, what to do when a
// sensor is lost (off, hold, or a duty share of each 10-minute cycle), each rule stated plainly, and a
// preview of what the rules would have done over the recorded history. Empty means disabled (null).
import { useState, type FormEvent } from 'react';
import type { AutomationRules, Device, SensorLossAction } from '../../../../server/contract/device.ts';
import { errorMessage } from '../../api/client.ts';
import { useDeviceCommands } from '../../api/devices.ts';
import { useGreenhouseSettings } from '../../api/settings.ts';
import { toast } from '../../components/toast/index.ts';
import { useNow } from '../../components/useNow.ts';
import { formFromSchedule, scheduleFromForm, type ScheduleForm } from '../../schedule/schedule-form.ts';
import { todayWindow } from '../../schedule/sun-times.ts';
import { useTemperatureUnit } from '../../units.ts';
import { RULE_LABELS, ruleFieldsFor } from './device-ui.ts';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { PreviewPanel } from './automation/PreviewPanel.tsx';
import { ScheduleEditor } from './automation/ScheduleEditor.tsx';
import { ruleLabel, rulesFromTexts, textsFromRules, type RuleTexts } from './automation/rule-form.ts';
import { RULE_SHAPES, ruleStatements, ruleVerb, scheduleStatement } from './automation/rule-text.ts';
import { FollowProgram, followFormOf, followRules, followsFor, type FollowForm } from './automation/FollowProgram.tsx';
import './automation/automation.css';
import { IrrigationEditor } from './irrigation/IrrigationEditor.tsx';
import { flowFromForm, formFromProgram, programFromForm, type IrrigationForm } from './irrigation/irrigation-form.ts';
import { saveFlow } from '../../api/irrigation.ts';
import './irrigation/irrigation.css';

/** The 10-minute cycle of sensor-loss duty (server/contract/device.ts SENSOR_LOSS_DUTY_CYCLE_MS). */
const DUTY_CYCLE_MIN = 10;

export function AutomationDialog({ device, onClose }: { device: Device; onClose(): void }) {
  const unit = useTemperatureUnit();
  const [autoMode, setAutoMode] = useState(device.autoMode);
  const [texts, setTexts] = useState<RuleTexts>(() => textsFromRules(device.automationRules, unit));
  const [scheduleForm, setScheduleForm] = useState<ScheduleForm>(() => formFromSchedule(device.automationRules.schedule));
  const [lossAction, setLossAction] = useState<SensorLossAction>(device.sensorLossAction);
  const [followForm, setFollowForm] = useState<FollowForm>(() => followFormOf(device.automationRules));
  const [dutyText, setDutyText] = useState(device.sensorLossDutyPct === null ? '30' : String(device.sensorLossDutyPct));
  const [irrigationForm, setIrrigationForm] = useState<IrrigationForm>(() => formFromProgram(device.automationRules.irrigation, device.flowLitresPerMinute));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const commands = useDeviceCommands();
  const settings = useGreenhouseSettings().data;
  // The deadbands come with the settings; until they load, the statements wait.
  const deadband = settings?.deviceSettings.deadband ?? null;
  const site = settings ? settings.systemSettings.site : undefined;
  const nowMs = useNow(60_000);
  const fields = ruleFieldsFor(device.deviceType, device.automationRules);

  const schedule = scheduleFromForm(scheduleForm);
  const bands = rulesFromTexts(device, fields, texts, unit, RULE_LABELS);
  // Pumps only: the irrigation program rides with the rules (null switches it off).
  const isPump = device.deviceType === 'WATER_PUMP';
  const program = isPump ? programFromForm(irrigationForm) : null;
  const flow = isPump ? flowFromForm(irrigationForm) : null;
  const rules: AutomationRules | string =
    typeof bands === 'string'
      ? bands
      : typeof schedule === 'string'
        ? schedule
        : typeof program === 'string'
          ? program
          : { ...bands, schedule, ...followRules(followForm), ...(isPump ? { irrigation: program } : {}) };
  const duty = lossAction === 'duty' ? Number(dutyText) : null;
  const dutyProblem = duty !== null && (dutyText.trim() === '' || !Number.isFinite(duty) || duty < 0 || duty > 100) ? 'Duty must be a number from 0 to 100 %' : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = typeof rules === 'string' ? rules : typeof flow === 'string' ? flow : dutyProblem;
    if (problem !== null || typeof rules === 'string' || typeof flow === 'string') {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      if (isPump && flow !== (device.flowLitresPerMinute ?? null)) await saveFlow(device.deviceId, flow);
      await commands.saveAutomation(device.deviceId, rules, autoMode, { sensorLossAction: lossAction, sensorLossDutyPct: duty });
      toast.success('Automation settings updated successfully');
      onClose();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update automation settings'));
    } finally {
      setBusy(false);
    }
  }

  const statements = typeof rules === 'string' || !deadband ? [] : ruleStatements(device.deviceType, fields, rules, deadband, unit);
  const today = typeof rules !== 'string' && rules.schedule && site !== undefined ? todayWindow(rules.schedule, site, nowMs) : null;
  const scheduleText = typeof rules === 'string' || !rules.schedule ? null : scheduleStatement(statements.length === 0, today?.ok ? today.text : null);

  return (
    <Dialog id="automation" title="Automation Settings" onClose={onClose}>
      <p className="muted">{device.deviceName}</p>
      <form className="form" onSubmit={submit} noValidate>
        <label className="checkbox">
          <input type="checkbox" name="autoMode" checked={autoMode} onChange={(e) => setAutoMode(e.target.checked)} />
          Auto Mode
        </label>
        {autoMode && followsFor(device.deviceType).length > 0 && <FollowProgram deviceType={device.deviceType} form={followForm} onChange={setFollowForm} />}
        {autoMode &&
          fields.map((field) => {
            const label = ruleLabel(RULE_LABELS[field], field, unit);
            const shape = RULE_SHAPES[field];
            const set = (patch: Partial<RuleTexts[typeof field]>) => setTexts((t) => ({ ...t, [field]: { ...t[field], ...patch } }));
            const onId = `rule-${field}`;
            const offId = `rule-${field}-off`;
            return (
              <div key={field} className="settings-pair rule-band" data-testid={`band-${field}`}>
                <div className="field">
                  <label htmlFor={onId}>{label}</label>
                  <input id={onId} name={field} type="number" step={0.1} value={texts[field].on} placeholder="Disabled" aria-describedby={`${onId}-hint`}
                    onChange={(e) => set({ on: e.target.value })} />
                  <span className="field-hint" id={`${onId}-hint`}>
                    {ruleVerb(device.deviceType)} {shape.direction} this
                  </span>
                </div>
                <div className="field">
                  <label htmlFor={offId}>{label.replace(/ \(/, ': stop at (')}</label>
                  <input
                    id={offId}
                    name={`${field}OffAt`}
                    type="number"
                    step={0.1}
                    value={texts[field].off}
                    placeholder="Deadband"
                    disabled={texts[field].on.trim() === ''}
                    aria-describedby={`${offId}-hint`}
                    onChange={(e) => set({ off: e.target.value })}
                  />
                  <span className="field-hint" id={`${offId}-hint`}>
                    Empty: the deadband from Settings
                  </span>
                </div>
              </div>
            );
          })}
        {autoMode && <p className="field-hint">Leave a threshold empty to disable that rule. The device turns on when any rule is met.</p>}
        {autoMode && isPump && <IrrigationEditor form={irrigationForm} onChange={setIrrigationForm} program={program} flow={flow} />}
        {autoMode && <ScheduleEditor form={scheduleForm} onChange={setScheduleForm} schedule={schedule} site={site} />}
        {autoMode && (
          <div className="settings-pair">
            <label className="field">
              If a sensor is lost
              <select name="sensorLossAction" value={lossAction} onChange={(e) => setLossAction(e.target.value as SensorLossAction)}>
                <option value="off">Switch off (safe state)</option>
                <option value="hold">Keep its state</option>
                <option value="duty">Run a share of each {DUTY_CYCLE_MIN} minutes (frost protection)</option>
              </select>
              <span className="field-hint">A faulted sensor or a reading older than 5 minutes counts as lost.</span>
            </label>
            {lossAction === 'duty' && (
              <label className="field">
                Duty while lost (%)
                <input name="sensorLossDutyPct" type="number" min={0} max={100} step={1} value={dutyText} onChange={(e) => setDutyText(e.target.value)} />
                <span className="field-hint" data-testid="duty-words">
                  {dutyProblem ?? `On for ${Math.round(((duty ?? 0) / 100) * DUTY_CYCLE_MIN * 10) / 10} min of every ${DUTY_CYCLE_MIN} min, from the start of each cycle`}
                </span>
              </label>
            )}
          </div>
        )}
        {autoMode && (statements.length > 0 || scheduleText) && (
          <ul className="rule-statements" data-testid="rule-statements">
            {statements.map((s) => (
              <li key={s}>{s}</li>
            ))}
            {scheduleText && <li>{scheduleText}</li>}
          </ul>
        )}
        {autoMode && <PreviewPanel deviceId={device.deviceId} rules={rules} />}
        {error && <p className="field-error">{error}</p>}
        <DialogActions submitLabel="Save Settings" busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
