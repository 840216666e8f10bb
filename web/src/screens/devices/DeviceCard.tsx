// One device on the Device Control screen.
import { Settings2, Trash2, Unplug } from 'lucide-react';
import type { Device } from '../../../../server/contract/device.ts';
import { formatRelativeTime } from '../../format.ts';
import { controlLabel, statusBadgeClass, switchesOn } from './device-ui.ts';

interface Props {
  device: Device;
  canModify: boolean;
  busy: boolean;
  /** Why switching on is refused right now (maintenance mode, gateway unreachable); null when allowed. */
  switchOnBlocked: string | null;
  /** Why no control works right now (gateway unreachable); null when allowed. */
  controlBlocked: string | null;
  onControl(device: Device): void;
  onAutomation(device: Device): void;
  onRemove(device: Device): void;
}

export function DeviceCard({ device, canModify, busy, switchOnBlocked, controlBlocked, onControl, onAutomation, onRemove }: Props) {
  // Switching off is always allowed (safe state); switching on may be refused, and the card says why.
  const reason = controlBlocked ?? (switchesOn(device) ? switchOnBlocked : null);
  const reasonId = `device-${device.deviceId}-blocked`;
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
      {canModify && reason && (
        <p className="device-blocked" id={reasonId} data-testid="device-blocked">
          {reason}
        </p>
      )}
      {canModify && (
        <div className="row device-actions">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={busy || reason !== null}
            aria-describedby={reason ? reasonId : undefined}
            onClick={() => onControl(device)}
          >
            {controlLabel(device)}
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => onAutomation(device)}>
            <Settings2 size={16} aria-hidden /> Automation Settings
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm device-remove"
            aria-label={`Remove ${device.deviceName}`}
            title="Remove device"
            onClick={() => onRemove(device)}
          >
            <Trash2 size={16} aria-hidden />
          </button>
        </div>
      )}
    </div>
  );
}
