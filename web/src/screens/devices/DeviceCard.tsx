// One device on the Device Control screen.
import { Settings2, Unplug } from 'lucide-react';
import type { Device } from '../../../../server/contract/device.ts';
import { formatRelativeTime } from '../../format.ts';
import { controlLabel, statusBadgeClass } from './device-ui.ts';

interface Props {
  device: Device;
  canModify: boolean;
  busy: boolean;
  onControl(device: Device): void;
  onAutomation(device: Device): void;
}

export function DeviceCard({ device, canModify, busy, onControl, onAutomation }: Props) {
  return (
    <div className="card device-card" data-testid={`device-${device.deviceId}`}>
      <div className="device-card-head">
        <div className="device-card-title">
          <h4>{device.deviceName}</h4>
          <span className="muted device-id">{device.deviceId}</span>
        </div>
        <div className="row device-badges">
          {device.autoMode && <span className="badge badge-auto">AUTO</span>}
          <span className={statusBadgeClass(device.status)} data-testid="device-status">
            {device.status}
          </span>
        </div>
      </div>
      <dl className="device-facts">
        <dt>Power</dt>
        <dd>{device.powerConsumption} W</dd>
        <dt>Location</dt>
        <dd>{device.location}</dd>
        <dt>Last activated</dt>
        <dd>{device.lastActivated ? formatRelativeTime(device.lastActivated) : 'Never'}</dd>
      </dl>
      {device.output === null && (
        <p className="device-unbound">
          <Unplug size={14} aria-hidden /> Not connected to hardware
        </p>
      )}
      {device.output !== null && !device.output.available && (
        <p className="device-unbound">
          <Unplug size={14} aria-hidden /> Output {device.output.outputId} unavailable
        </p>
      )}
      {canModify && (
        <div className="row device-actions">
          <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={() => onControl(device)}>
            {controlLabel(device)}
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => onAutomation(device)}>
            <Settings2 size={14} aria-hidden /> Automation Settings
          </button>
        </div>
      )}
    </div>
  );
}
