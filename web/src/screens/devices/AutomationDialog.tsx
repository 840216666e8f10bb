// Automation Settings dialog (spec section 5, "Automation rules"): auto mode, and the rule fields of the
// device's type, shown only while auto mode is on. Empty means disabled and is sent as null.
import { useState, type FormEvent } from 'react';
import type { AutomationRules, Device } from '../../../../server/contract/device.ts';
import { errorMessage } from '../../api/client.ts';
import { useDeviceCommands } from '../../api/devices.ts';
import { toast } from '../../components/toast/index.ts';
import { RULE_LABELS, ruleFieldsFor, type RuleField } from './device-ui.ts';
import { Dialog } from '../../components/Dialog.tsx';

type Texts = Record<RuleField, string>;

const toTexts = (rules: AutomationRules): Texts =>
  Object.fromEntries(Object.keys(RULE_LABELS).map((k) => [k, rules[k as RuleField] === null ? '' : String(rules[k as RuleField])])) as Texts;

export function AutomationDialog({ device, onClose }: { device: Device; onClose(): void }) {
  const [autoMode, setAutoMode] = useState(device.autoMode);
  const [texts, setTexts] = useState<Texts>(() => toTexts(device.automationRules));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const commands = useDeviceCommands();
  const fields = ruleFieldsFor(device.deviceType);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const rules = { ...device.automationRules };
    for (const field of fields) {
      const text = texts[field].trim();
      const value = text === '' ? null : Number(text);
      if (value !== null && !Number.isFinite(value)) {
        setError(`${RULE_LABELS[field]} must be a number`);
        return;
      }
      rules[field] = value;
    }
    setError(null);
    setBusy(true);
    try {
      await commands.saveAutomation(device.deviceId, rules, autoMode);
      toast.success('Automation settings updated successfully');
      onClose();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update automation settings'));
    } finally {
      setBusy(false);
    }
  }

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
          {error && <p className="field-error">{error}</p>}
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Save Settings
            </button>
          </div>
        </form>
    </Dialog>
  );
}
