// Overview widget "Device Status" (docs/product.md §2, Overview): the first 4 devices, compactly.
import { useDevices } from '../../api/queries.ts';
import { QueryGate, StaleNote } from '../../components/DataState.tsx';
import { deviceTypeName } from '../../names.ts';
import { statusBadgeClass } from '../devices/device-ui.ts';
import '../devices/devices.css';

export function DeviceStatus() {
  const query = useDevices();
  const devices = (query.data ?? []).slice(0, 4);
  return (
    <div className="card" data-testid="device-status-widget">
      <div className="card-header">
        <h3>Device Status</h3>
      </div>
      <StaleNote query={query} />
      <QueryGate query={query} what="devices">
      {devices.length === 0 ? (
        <p className="empty-state">No devices configured</p>
      ) : (
        <ul className="device-status-list">
          {devices.map((device) => (
            <li key={device.deviceId} className="device-status-item">
              <div>
                <p>{device.deviceName}</p>
                <p className="muted device-id">{deviceTypeName(device.deviceType)}</p>
              </div>
              <div className="row device-badges">
                {device.autoMode && <span className="badge badge-auto">AUTO</span>}
                <span className={statusBadgeClass(device.status)}>{device.status}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      </QueryGate>
    </div>
  );
}
