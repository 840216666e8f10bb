// Device Control (docs/product.md §2, "Devices"): summary cards, devices grouped by type, quick actions,
// and the Add Device / Automation Settings dialogs. Viewers see the same screen without controls.
import { StatCard } from '../components/StatCard.tsx';
import { Activity, Bot, Cpu, Plus, Zap, type LucideIcon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Device } from '../../../server/contract/device.ts';
import { errorMessage } from '../api/client.ts';
import { useDeviceCommands, useDeviceStats } from '../api/devices.ts';
import { useDevices } from '../api/queries.ts';
import { useReachability } from '../api/reachability.ts';
import { useMaintenanceMode } from '../api/settings.ts';
import { StaleNote, UnreachableNotice } from '../components/DataState.tsx';
import { formatClock, MISSING } from '../format.ts';
import { MAINTENANCE_REASON } from '../shell/StatusNotices.tsx';
import { roleReason, useCanModify } from '../auth/permissions.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { toast } from '../components/toast/index.ts';
import { useConfirm } from '../components/confirm/ConfirmProvider.tsx';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { AddDeviceDialog } from './devices/AddDeviceDialog.tsx';
import { AutomationDialog } from './devices/AutomationDialog.tsx';
import { ControlLogDialog } from './devices/ControlLogDialog.tsx';
import { DeviceCard } from './devices/DeviceCard.tsx';
import { controlActionFor, GROUPS, isActive } from './devices/device-ui.ts';
import { QuickActions } from './devices/QuickActions.tsx';
import { LostSensorsNotice } from './devices/LostSensorsNotice.tsx';
import './devices/devices.css';
import { WaterPerDay } from './devices/irrigation/WaterPerDay.tsx';
import './devices/irrigation/irrigation.css';

export function DevicesScreen() {
  const devicesQuery = useDevices();
  const devices = useMemo(() => devicesQuery.data ?? [], [devicesQuery.data]);
  const known = devicesQuery.data !== undefined;
  const stats = useDeviceStats().data;
  const maintenance = useMaintenanceMode();
  const { unreachableSinceMs } = useReachability();
  const controlBlocked = unreachableSinceMs !== null ? `Gateway unreachable since ${formatClock(unreachableSinceMs)}: controls are unavailable.` : null;
  const switchOnBlocked = maintenance ? MAINTENANCE_REASON : null;
  const canModify = useCanModify();
  const viewerReason = roleReason(useAuth().user, 'operator');
  const { connected, subscribe } = useRealtime();
  const commands = useDeviceCommands();
  const confirm = useConfirm();
  const [adding, setAdding] = useState(false);
  const [automationFor, setAutomationFor] = useState<Device | null>(null);
  const [logFor, setLogFor] = useState<Device | null>(null);
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  // Devices this browser added or removed: their deviceAdded/deviceRemoved echo is not news to this user.
  const knownIds = useRef(new Set<string>());
  const ownAdds = useRef(new Set<string>());
  const ownRemovals = useRef(new Set<string>());

  useEffect(() => {
    knownIds.current = new Set(devices.map((d) => d.deviceId));
  }, [devices]);
  useEffect(
    () =>
      subscribe('deviceAdded', (device) => {
        if (!knownIds.current.has(device.deviceId) && !ownAdds.current.has(device.deviceId)) toast.success(`New device added: ${device.deviceName}`);
      }),
    [subscribe],
  );
  useEffect(
    () =>
      subscribe('deviceRemoved', ({ deviceId }) => {
        if (knownIds.current.has(deviceId) && !ownRemovals.current.delete(deviceId)) toast.info('Device removed');
      }),
    [subscribe],
  );

  async function control(device: Device) {
    setBusyIds((s) => new Set(s).add(device.deviceId));
    try {
      const envelope = await commands.control(device.deviceId, controlActionFor(device));
      // The next attempt's outcome replaces the last one's: a failed switch's error goes when it works.
      if (envelope.message) toast.success(envelope.message, { key: `control:${device.deviceId}` });
      else toast.clear(`control:${device.deviceId}`);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to control device'), { key: `control:${device.deviceId}` });
    } finally {
      setBusyIds((s) => {
        const next = new Set(s);
        next.delete(device.deviceId);
        return next;
      });
    }
  }

  async function remove(device: Device) {
    const message = `Remove ${device.deviceName}? It is switched off and no longer shown or controlled.`;
    if (!(await confirm({ title: 'Remove device', message, confirmLabel: 'Remove', danger: true }))) return;
    ownRemovals.current.add(device.deviceId);
    try {
      await commands.remove(device.deviceId);
      toast.success('Device removed', { key: `remove:${device.deviceId}` });
    } catch (err) {
      ownRemovals.current.delete(device.deviceId);
      toast.error(errorMessage(err, 'Failed to remove device'), { key: `remove:${device.deviceId}` });
    }
  }

  const totalActive = stats?.overall.totalActiveDevices ?? devices.filter((d) => isActive(d.status)).length;
  const autoCount = stats?.overall.totalAutoModeDevices ?? devices.filter((d) => d.autoMode).length;
  const powerW = stats?.overall.totalPowerConsumption ?? devices.filter((d) => isActive(d.status)).reduce((sum, d) => sum + d.powerConsumption, 0);

  return (
    <div className="screen devices-screen">
      <div className="row devices-title-row">
        <h1 className="screen-title">Device Control</h1>
        <span className={`connection ${connected ? 'connection-on' : 'connection-off'}`}>{connected ? 'Connected' : 'Disconnected'}</span>
        {canModify && (
          <button type="button" className="btn btn-primary devices-add" onClick={() => setAdding(true)}>
            <Plus size={16} aria-hidden /> Add Device
          </button>
        )}
      </div>

      <div className="grid grid-4">
        <SummaryCard label="Total Devices" value={known ? devices.length : MISSING} icon={Cpu} />
        <SummaryCard label="Active Devices" value={known ? totalActive : MISSING} icon={Activity} />
        <SummaryCard label="Auto Mode" value={known ? autoCount : MISSING} icon={Bot} />
        <SummaryCard label="Power Usage (W)" value={known ? Math.round(powerW * 10) / 10 : MISSING} icon={Zap} />
      </div>
      <StaleNote query={devicesQuery} />
      <LostSensorsNotice />
      {viewerReason && (
        <p className="notice notice-warn" data-testid="viewer-note">
          {viewerReason} Switching devices, automation and adding devices need an operator or admin, so those controls are not shown; each
          device's control log is open to read.
        </p>
      )}
      {/* Before the device list: on a phone the emergency stop must not be three screens down. */}
      {canModify && known && devices.length > 0 && <QuickActions blocked={controlBlocked} />}

      {devicesQuery.isError && !known ? (
        <UnreachableNotice what="devices" error={devicesQuery.error} />
      ) : devicesQuery.isPending ? (
        <div className="center-block">
          <Spinner size="md" />
        </div>
      ) : devices.length === 0 ? (
        <div className="card empty-state">
          <Cpu size={32} aria-hidden />
          <h3>No devices configured</h3>
          <p>Add your first device to start controlling your greenhouse.</p>
          {canModify && (
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              <Plus size={16} aria-hidden /> Add Device
            </button>
          )}
        </div>
      ) : (
        <div className="device-groups">
        {GROUPS.map(({ type, heading }) => {
          const group = devices.filter((d) => d.deviceType === type);
          if (group.length === 0) return null;
          return (
            <section key={type} className="device-group" data-testid={`group-${type}`}>
              <div className="device-group-head">
                <h2>{heading}</h2>
                <span className="badge badge-off">{group.length}</span>
                <span className="badge badge-on">{group.filter((d) => isActive(d.status)).length} active</span>
              </div>
              <div className="device-grid">
                {group.map((device) => (
                  <DeviceCard
                    key={device.deviceId}
                    device={device}
                    canModify={canModify}
                    busy={busyIds.has(device.deviceId)}
                    switchOnBlocked={switchOnBlocked}
                    controlBlocked={controlBlocked}
                    onControl={control}
                    onAutomation={setAutomationFor}
                    onLog={setLogFor}
                    onRemove={(d) => void remove(d)}
                  />
                ))}
              </div>
            </section>
          );
        })}
        </div>
      )}

      {known && devices.some((d) => d.deviceType === 'WATER_PUMP') && (
        <div className="water-section">
          {devices
            .filter((d) => d.deviceType === 'WATER_PUMP')
            .map((pump) => (
              <WaterPerDay key={pump.deviceId} pump={pump} />
            ))}
        </div>
      )}

      {adding && <AddDeviceDialog onAdding={(deviceId) => ownAdds.current.add(deviceId)} onClose={() => setAdding(false)} />}
      {automationFor && <AutomationDialog device={automationFor} onClose={() => setAutomationFor(null)} />}
      {logFor && <ControlLogDialog device={logFor} onClose={() => setLogFor(null)} />}
    </div>
  );
}

function SummaryCard(props: { label: string; value: number | string; icon: LucideIcon }) {
  return <StatCard {...props} testId={`devices-${props.label.toLowerCase().replace(/[^a-z]+/g, '-')}`} />;
}
