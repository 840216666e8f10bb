// One device on the Device Control screen: its state and why it is in it, each lock as a sentence, and
// the controls, with what a lock forbids disabled before anyone taps (the reason beside it).
import { History, Info, Lock, Settings2, Trash2, Unplug } from 'lucide-react';
import type { Device } from '../../../../server/contract/device.ts';
import { useNow } from '../../components/useNow.ts';
import { formatRelativeTime } from '../../format.ts';
import { deviceTypeName } from '../../names.ts';
import { reasonLine } from './control-words.ts';
import { controlLabel, openingText, statusBadgeClass } from './device-ui.ts';
import { blockedControl, lockSentence } from './lock-words.ts';

interface Props {
  device: Device;
  canModify: boolean;
  busy: boolean;
  /** Why switching on is refused right now for every device (maintenance mode); null when allowed. */
  switchOnBlocked: string | null;
  /** Why no control works right now (gateway unreachable); null when allowed. */
  controlBlocked: string | null;
  onControl(device: Device): void;
  onAutomation(device: Device): void;
  onLog(device: Device): void;
  onRemove(device: Device): void;
}

export function DeviceCard({ device, canModify, busy, switchOnBlocked, controlBlocked, onControl, onAutomation, onLog, onRemove }: Props) {
  const nowMs = useNow();
  const blocked = blockedControl(device, controlBlocked, switchOnBlocked);
  const locksId = `device-${device.deviceId}-locks`;
  const blockedId = `device-${device.deviceId}-blocked`;
  return (
    <div className={`card device-card${device.locks.length > 0 ? ' device-card-locked' : ''}`} data-testid={`device-${device.deviceId}`}>
      <div className="device-card-head">
        <div className="device-card-title">
          <h4>{device.deviceName}</h4>
          <span className="muted device-kind">{deviceTypeName(device.deviceType)}</span>
        </div>
        <div className="row device-badges">
          {device.autoMode && <span className="badge badge-auto">AUTO</span>}
          <span className={statusBadgeClass(device.status)} data-testid="device-status">
            {device.status}
          </span>
          {openingText(device) && (
            <span className="badge" data-testid="device-open-pct">
              {openingText(device)}
            </span>
          )}
        </div>
      </div>
      {device.stateReason && (
        <p className={`device-reason device-reason-${device.stateReason.source}`} data-testid="device-reason">
          <Info size={14} aria-hidden /> {reasonLine(device.stateReason, nowMs)}
        </p>
      )}
      <dl className="device-facts">
        <dt>Power</dt>
        <dd>{device.powerConsumption} W</dd>
        <dt>Location</dt>
        <dd>{device.location}</dd>
        <dt>Last activated</dt>
        <dd>{device.lastActivated ? formatRelativeTime(device.lastActivated, nowMs) : 'Never'}</dd>
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
      {device.locks.length > 0 && (
        <ul className="device-locks" id={locksId} data-testid="device-locks" aria-label="Locks">
          {device.locks.map((lock) => (
            <li key={lock.kind} data-lock={lock.kind}>
              <Lock size={14} aria-hidden /> <span>{lockSentence(lock, nowMs)}</span>
            </li>
          ))}
        </ul>
      )}
      {canModify && blocked && !blocked.lockedOn && (
        <p className="device-blocked" id={blockedId} data-testid="device-blocked">
          {blocked.reason}
        </p>
      )}
      <div className="row device-actions">
        {canModify && (
          <>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={busy || blocked !== null}
              aria-describedby={blocked ? (blocked.lockedOn ? locksId : blockedId) : undefined}
              onClick={() => onControl(device)}
            >
              {blocked?.lockedOn && <Lock size={14} aria-hidden />}
              {controlLabel(device)}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => onAutomation(device)}>
              <Settings2 size={16} aria-hidden /> Automation Settings
            </button>
          </>
        )}
        <button type="button" className="btn btn-secondary btn-sm" aria-label={`Control log of ${device.deviceName}`} onClick={() => onLog(device)}>
          <History size={16} aria-hidden /> Log
        </button>
        {canModify && (
          <button
            type="button"
            className="btn btn-ghost btn-sm device-remove"
            aria-label={`Remove ${device.deviceName}`}
            title="Remove device"
            onClick={() => onRemove(device)}
          >
            <Trash2 size={16} aria-hidden />
          </button>
        )}
      </div>
    </div>
  );
}
