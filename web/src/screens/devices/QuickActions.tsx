// Quick Actions panel of the Device Control screen.
import { Power, Sparkles, Zap } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useDeviceCommands } from '../../api/devices.ts';
import { toast } from '../../components/toast/index.ts';

export function QuickActions() {
  const commands = useDeviceCommands();
  const [busy, setBusy] = useState(false);

  async function run(call: () => Promise<{ message?: string }>, fallback: string, text?: (message?: string) => string) {
    setBusy(true);
    try {
      const result = await call();
      toast.success(text ? text(result.message) : (result.message ?? 'Done'));
    } catch (err) {
      toast.error(errorMessage(err, fallback));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card">
      <div className="card-header">
        <h3>Quick Actions</h3>
      </div>
      <div className="quick-actions">
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() => {
            if (window.confirm('Are you sure you want to turn off all devices?')) void run(commands.turnOffAll, 'Failed to turn off devices');
          }}
        >
          <Power size={16} aria-hidden /> Turn Off All Devices
        </button>
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void run(commands.enableAuto, 'Failed to enable auto mode')}>
          <Sparkles size={16} aria-hidden /> Enable Auto Mode
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const envelope = await commands.optimizePower();
              return { message: `Power optimized: ${envelope.data.powerSavedW} W saved` };
            }, 'Failed to optimize power')
          }
        >
          <Zap size={16} aria-hidden /> Optimize Power
        </button>
      </div>
    </div>
  );
}
