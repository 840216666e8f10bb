// Automation Settings dialog (spec section 5, "Automation rules"; design.md, Climate metrics,
// automation and the simulator): auto mode, the rule fields of the device's type, a schedule window,
// what to do when a sensor is lost, each rule stated plainly ("ON at X, OFF at Y"), and a preview of
// what the rules would have done over the recorded history. Empty means disabled and is sent as null.
import { useState, type FormEvent } from 'react';
import type { AutomationRules, Device, SensorLossAction } from '../../../../server/contract/device.ts';
import { errorMessage } from '../../api/client.ts';
import { useDeviceCommands } from '../../api/devices.ts';
import { useGreenhouseSettings } from '../../api/settings.ts';
import { toast } from '../../components/toast/index.ts';
import { RULE_LABELS, ruleFieldsFor, type RuleField } from './device-ui.ts';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { PreviewPanel } from './automation/PreviewPanel.tsx';
import { isScheduleTime, ruleStatements, scheduleStatement } from './automation/rule-text.ts';
import './automation/automation.css';

type Texts = Record<RuleField, string>;

const toTexts = (rules: AutomationRules): Texts =>
  Object.fromEntries(Object.keys(RULE_LABELS).map((k) => [k, rules[k as RuleField] === null ? '' : String(rules[k as RuleField])])) as Texts;

interface ScheduleForm {
  on: boolean;
  from: string;
  to: string;
}

/** The rules as the form says them, or the first problem as a sentence. */
function rulesFrom(device: Device, fields: readonly RuleField[], texts: Texts, schedule: ScheduleForm): AutomationRules | string {
  const rules = { ...device.automationRules };
  for (const field of fields) {
    const text = texts[field].trim();
    const value = text === '' ? null : Number(text);
    if (value !== null && !Number.isFinite(value)) return `${RULE_LABELS[field]} must be a number`;
    rules[field] = value;
  }
  if (schedule.on) {
    for (const [name, text] of [['From', schedule.from], ['To', schedule.to]] as const) {
      if (!isScheduleTime(text.trim())) return `${name} must be HH:MM, sunrise or sunset (e.g. sunrise+30)`;
    }
    rules.schedule = { from: schedule.from.trim(), to: schedule.to.trim() };
  } else {
    rules.schedule = null;
  }
  return rules;
}

export function AutomationDialog({ device, onClose }: { device: Device; onClose(): void }) {
  const [autoMode, setAutoMode] = useState(device.autoMode);
  const [texts, setTexts] = useState<Texts>(() => toTexts(device.automationRules));
  const [schedule, setSchedule] = useState<ScheduleForm>(() => ({
    on: device.automationRules.schedule !== null,
    from: device.automationRules.schedule?.from ?? '06:00',
    to: device.automationRules.schedule?.to ?? '20:00',
  }));
  const [lossAction, setLossAction] = useState<SensorLossAction>(device.sensorLossAction);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const commands = useDeviceCommands();
  // The deadbands come with the settings; until they load, the statements wait.
  const deadband = useGreenhouseSettings().data?.deviceSettings.deadband ?? null;
  const fields = ruleFieldsFor(device.deviceType);
  const rules = rulesFrom(device, fields, texts, schedule);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (typeof rules === 'string') {
      setError(rules);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await commands.saveAutomation(device.deviceId, rules, autoMode, { sensorLossAction: lossAction });
      toast.success('Automation settings updated successfully');
      onClose();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update automation settings'));
    } finally {
      setBusy(false);
    }
  }

  const statements = typeof rules === 'string' || !deadband ? [] : ruleStatements(fields, rules, deadband);
  const scheduleText = typeof rules === 'string' ? null : scheduleStatement(rules.schedule, statements.length === 0);

  return (
    <Dialog id="automation" title="Automation Settings" onClose={onClose}>
      <p className="muted">{device.deviceName}</p>
      <form className="form" onSubmit={submit} noValidate>
        <label className="checkbox">
          <input type="checkbox" name="autoMode" checked={autoMode} onChange={(e) => setAutoMode(e.target.checked)} />
          Auto Mode
        </label>
        {autoMode &&
          fields.map((field) => (
            <label key={field} className="field">
              {RULE_LABELS[field]}
              <input
                name={field}
                type="number"
                step={0.1}
                value={texts[field]}
                placeholder="Disabled"
                onChange={(e) => setTexts((t) => ({ ...t, [field]: e.target.value }))}
              />
            </label>
          ))}
        {autoMode && <p className="field-hint">Leave a field empty to disable that rule. The device turns on when any rule is met.</p>}
        {autoMode && (
          <fieldset className="automation-group">
            <label className="checkbox">
              <input type="checkbox" name="scheduleOn" checked={schedule.on} onChange={(e) => setSchedule({ ...schedule, on: e.target.checked })} />
              Only within a schedule
            </label>
            {schedule.on && (
              <div className="settings-pair">
                <label className="field">
                  From
                  <input name="scheduleFrom" value={schedule.from} onChange={(e) => setSchedule({ ...schedule, from: e.target.value })} />
                </label>
                <label className="field">
                  To
                  <input name="scheduleTo" value={schedule.to} onChange={(e) => setSchedule({ ...schedule, to: e.target.value })} />
                </label>
              </div>
            )}
            {schedule.on && (
              <p className="field-hint">HH:MM in the gateway's local time (may cross midnight), or sunrise/sunset with minutes (sunrise+30). Off outside the window; with no rule, on inside it (a photoperiod).</p>
            )}
          </fieldset>
        )}
        {autoMode && (
          <label className="field">
            If a sensor is lost
            <select name="sensorLossAction" value={lossAction} onChange={(e) => setLossAction(e.target.value as SensorLossAction)}>
              <option value="off">Switch off (safe state)</option>
              <option value="hold">Keep its state</option>
            </select>
            <span className="field-hint">A faulted sensor or a reading older than 5 minutes counts as lost.</span>
          </label>
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
