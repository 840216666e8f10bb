// Add Device dialog (docs/product.md §5, "Add device").
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useDeviceCommands, useFreeOutputs, type NewDevice } from '../../api/devices.ts';
import { useDevices } from '../../api/queries.ts';
import { toast } from '../../components/toast/index.ts';
import { deviceIdKey, deviceNameKey } from '../../../../common/device-names.ts';
import type { Device } from '../../../../server/contract/device.ts';
import { ADDABLE_TYPES, generateDeviceId } from './device-ui.ts';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';

const TYPE_LABELS: Record<(typeof ADDABLE_TYPES)[number], string> = {
  FAN: 'Fan',
  WATER_PUMP: 'Water Pump',
  LED_LIGHT: 'LED Light',
  HEATER: 'Heater',
  COOLING_SYSTEM: 'Cooling System',
};

const EMPTY = { deviceName: '', deviceId: '', deviceType: '', location: 'Main Greenhouse', powerConsumption: '0', outputId: '' };
type Form = typeof EMPTY;
type Errors = Partial<Record<keyof Form, string>>;

/** `devices`: the greenhouse's devices; a name or id already in use is refused here as the gateway would (409). */
function validate(form: Form, devices: readonly Pick<Device, 'deviceId' | 'deviceName'>[]): Errors {
  const errors: Errors = {};
  const nameTaken = devices.find((d) => deviceNameKey(d.deviceName) === deviceNameKey(form.deviceName));
  const idTaken = devices.find((d) => deviceIdKey(d.deviceId) === deviceIdKey(form.deviceId.trim()));
  if (!form.deviceName.trim()) errors.deviceName = 'Device name is required';
  else if (nameTaken) errors.deviceName = `${nameTaken.deviceName} already has this name: choose another`;
  if (!form.deviceId.trim()) errors.deviceId = 'Device ID is required';
  else if (!/^[A-Za-z0-9_-]{1,64}$/.test(form.deviceId.trim())) errors.deviceId = 'Device ID may use letters, digits, - and _ (up to 64)';
  else if (idTaken) errors.deviceId = `Device ID is already used by ${idTaken.deviceName} (${idTaken.deviceId}); IDs are compared regardless of case`;
  if (!(ADDABLE_TYPES as readonly string[]).includes(form.deviceType)) errors.deviceType = 'Device type is required';
  const power = Number(form.powerConsumption);
  if (form.powerConsumption.trim() === '' || !Number.isFinite(power) || power < 0) errors.powerConsumption = 'Power consumption must be a number of 0 or more';
  return errors;
}

/** `onAdding` runs before the request: the screen then knows the deviceAdded echo is its own. */
export function AddDeviceDialog({ onAdding, onClose }: { onAdding(deviceId: string): void; onClose(): void }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const commands = useDeviceCommands();
  const devices = useDevices().data ?? [];
  const freeOutputs = (useFreeOutputs(true).data ?? []).filter((o) => o.kind === 'relay');
  const set = (key: keyof Form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(form, devices);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const device: NewDevice = {
      deviceName: form.deviceName.trim(),
      deviceId: form.deviceId.trim(),
      deviceType: form.deviceType as NewDevice['deviceType'],
      location: form.location.trim() || 'Main Greenhouse',
      powerConsumption: Number(form.powerConsumption),
      ...(form.outputId ? { outputId: form.outputId } : {}),
    };
    setBusy(true);
    onAdding(device.deviceId);
    try {
      await commands.add(device);
      toast.success('Device added successfully');
      setForm(EMPTY);
      onClose();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to add device'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog id="add-device" title="Add Device" onClose={onClose}>
        <form className="form" onSubmit={submit} noValidate>
          <label className="field">
            Device Name
            <input name="deviceName" value={form.deviceName} onChange={set('deviceName')} placeholder="e.g. Side Vent Fan" />
            {errors.deviceName && <span className="field-error">{errors.deviceName}</span>}
          </label>
          <label className="field">
            Device Type
            <select name="deviceType" value={form.deviceType} onChange={set('deviceType')}>
              <option value="">Select device type</option>
              {ADDABLE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TYPE_LABELS[type]}
                </option>
              ))}
            </select>
            {errors.deviceType && <span className="field-error">{errors.deviceType}</span>}
          </label>
          <div className="field">
            <label htmlFor="add-device-id">Device ID</label>
            <div className="row device-id-row">
              <input id="add-device-id" name="deviceId" value={form.deviceId} onChange={set('deviceId')} placeholder="e.g. fan_123456" />
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setForm((f) => ({ ...f, deviceId: generateDeviceId(f.deviceType) }))}>
                Generate ID
              </button>
            </div>
            {errors.deviceId && <span className="field-error">{errors.deviceId}</span>}
          </div>
          <label className="field">
            Location
            <input name="location" value={form.location} onChange={set('location')} />
          </label>
          <label className="field">
            Power Consumption (W)
            <input name="powerConsumption" type="number" min={0} step="any" value={form.powerConsumption} onChange={set('powerConsumption')} />
            {errors.powerConsumption && <span className="field-error">{errors.powerConsumption}</span>}
          </label>
          <label className="field">
            Hardware Output
            <select name="outputId" value={form.outputId} onChange={set('outputId')}>
              <option value="">Not connected to hardware</option>
              {freeOutputs.map((o) => (
                <option key={o.outputId} value={o.outputId}>
                  {o.outputId} (GPIO {o.pin})
                </option>
              ))}
            </select>
            <span className="field-hint">Only free relay outputs of the wiring config are listed.</span>
          </label>
          <DialogActions submitLabel="Add Device" busy={busy} onCancel={onClose} />
        </form>
    </Dialog>
  );
}
