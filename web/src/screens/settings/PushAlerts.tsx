// Alerts on this device (docs/https.md, Web Push): subscribe this browser for alerts at or above a
// severity, send a test, turn it off. Needs the secure address and, on an iPhone, the Home Screen app.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Severity } from '../../../../server/contract/alert.ts';
import type { PushTestResult } from '../../../../server/contract/push.ts';
import { api } from '../../api/client.ts';
import { currentSubscription, pushKey, pushSupport, subscribeThisBrowser, unsubscribeThisBrowser, usePushStatus } from '../../api/push.ts';
import { toast } from '../../components/toast/index.ts';
import { useAction } from './hooks.ts';

const LEVELS: Array<{ value: Severity; label: string }> = [
  { value: 'CRITICAL', label: 'Critical only' },
  { value: 'HIGH', label: 'High and critical' },
  { value: 'MEDIUM', label: 'Medium and above' },
  { value: 'LOW', label: 'Every alert' },
];

export function PushAlerts() {
  const support = pushSupport();
  return (
    <fieldset className="settings-group" data-testid="push-alerts">
      <legend>Alerts on this device</legend>
      {support === 'insecure' && (
        <p className="settings-note" data-testid="push-needs-https">
          Open the dashboard at its https address (above) to receive alerts on this device, even with the dashboard closed.
        </p>
      )}
      {support === 'unsupported' && (
        <p className="settings-note" data-testid="push-unsupported">
          This browser cannot receive pushed alerts. On an iPhone or iPad, add the dashboard to the Home Screen and open it from there.
        </p>
      )}
      {support === 'ok' && <PushControls />}
    </fieldset>
  );
}

function PushControls() {
  const queryClient = useQueryClient();
  const { data: status } = usePushStatus();
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [level, setLevel] = useState<Severity>('HIGH');
  const { busy, run } = useAction();

  useEffect(() => {
    let live = true;
    void currentSubscription().then((s) => live && setEndpoint(s?.endpoint ?? null), () => live && setEndpoint(null));
    return () => {
      live = false;
    };
  }, []);
  const mine = status?.subscriptions.find((s) => s.endpoint === endpoint) ?? null;
  useEffect(() => {
    if (mine) setLevel(mine.minSeverity);
  }, [mine]);
  const others = (status?.subscriptions.length ?? 0) - (mine ? 1 : 0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: pushKey });

  const subscribe = () =>
    run(
      async () => {
        const view = await subscribeThisBrowser(status!.publicKey, level);
        setEndpoint(view.endpoint);
        await refresh();
      },
      mine ? 'Alert level saved' : 'Alerts will be pushed to this device',
      'Could not turn on alerts on this device',
    );
  const unsubscribe = () =>
    run(
      async () => {
        await unsubscribeThisBrowser();
        setEndpoint(null);
        await refresh();
      },
      'Alerts are no longer pushed to this device',
      'Could not turn off alerts on this device',
    );
  const test = async () => {
    try {
      const result = await api.post<PushTestResult>('/api/push/test');
      if (result.failed > 0) toast.error(`Test sent: ${result.delivered} delivered, ${result.failed} failed`);
      else toast.success('Test notification sent');
      await refresh();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'Could not send a test notification');
    }
  };

  return (
    <>
      <p className="settings-note" data-testid="push-state">
        {mine ? 'This device receives alerts, even with the dashboard closed.' : 'This device does not receive pushed alerts.'}
        {others > 0 && ` ${others} other device${others === 1 ? '' : 's'} of yours ${others === 1 ? 'does' : 'do'}.`}
      </p>
      {mine?.lastError && <p className="settings-warning">The last push to this device failed: {mine.lastError}</p>}
      <label className="field">
        Alerts to push
        <select value={level} onChange={(e) => setLevel(e.target.value as Severity)} disabled={busy}>
          {LEVELS.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
      <div className="settings-actions">
        <button type="button" className="btn btn-primary" onClick={subscribe} disabled={busy || !status || endpoint === undefined}>
          {mine ? 'Save alert level' : 'Turn on alerts on this device'}
        </button>
        {mine && (
          <>
            <button type="button" className="btn btn-secondary" onClick={() => void test()} disabled={busy}>
              Send a test
            </button>
            <button type="button" className="btn btn-secondary" onClick={unsubscribe} disabled={busy}>
              Turn off on this device
            </button>
          </>
        )}
      </div>
    </>
  );
}
