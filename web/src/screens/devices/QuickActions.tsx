// Quick Actions panel of the Device Control screen. Each action toasts the gateway's own account of
// what it did ('2 device(s) turned off; auto mode switched off on 1').
import { Power, Sparkles, Zap } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useDeviceCommands } from '../../api/devices.ts';
import { toast } from '../../components/toast/index.ts';
import { useConfirm } from '../../components/confirm/ConfirmProvider.tsx';

/** Asked before Turn Off All: it says plainly that auto mode goes off too. */
export const TURN_OFF_ALL_CONFIRM =
  'Turn off all devices? Devices in auto mode are taken out of auto mode too, so their rules do not switch them back on. ' +
  'Use Enable Auto Mode to hand them back to their rules.';

export function QuickActions({ blocked }: { blocked: string | null }) {
  const commands = useDeviceCommands();
  const [busy, setBusy] = useState(false);
  const confirm = useConfirm();

  async function run(call: () => Promise<{ message?: string }>, fallback: string) {
    setBusy(true);
    try {
      const result = await call();
      toast.success(result.message ?? 'Done', { key: fallback });
    } catch (err) {
      toast.error(errorMessage(err, fallback), { key: fallback });
    } finally {
      setBusy(false);
    }
  }

  const disabled = busy || blocked !== null;
  return (
    <section className="card" aria-labelledby="quick-actions-title">
      <div className="card-header">
        <h3 id="quick-actions-title">Quick Actions</h3>
      </div>
      {blocked && <p className="device-blocked">{blocked}</p>}
      <div className="quick-actions">
        <button
          type="button"
          className="btn btn-danger"
          disabled={disabled}
          onClick={() => {
            void confirm({ title: 'Turn off all devices', message: TURN_OFF_ALL_CONFIRM, confirmLabel: 'Turn Off All', danger: true }).then(
              (yes) => {
                if (yes) void run(commands.turnOffAll, 'Failed to turn off devices');
              },
            );
          }}
        >
          <Power size={16} aria-hidden /> Turn Off All Devices
        </button>
        <button type="button" className="btn btn-secondary" disabled={disabled} onClick={() => void run(commands.enableAuto, 'Failed to enable auto mode')}>
          <Sparkles size={16} aria-hidden /> Enable Auto Mode
        </button>
        <button type="button" className="btn btn-secondary" disabled={disabled} onClick={() => void run(commands.optimizePower, 'Failed to optimize power')}>
          <Zap size={16} aria-hidden /> Optimize Power
        </button>
      </div>
    </section>
  );
}
