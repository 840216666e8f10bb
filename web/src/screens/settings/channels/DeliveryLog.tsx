// The delivery log: every message to every channel, newest first, with each attempt (when, outcome).
import type { Delivery } from '../../../../../server/contract/notification.ts';
import { useDeliveryLog } from '../../../api/notifications.ts';
import { formatTimestamp } from '../../../format.ts';

const STATUS_TEXT: Record<Delivery['status'], string> = { delivered: 'Delivered', pending: 'Retrying', failed: 'Failed' };
const REASON_TEXT: Record<Delivery['reason'], string> = { alert: 'Alert', escalation: 'Not acknowledged', test: 'Test', 'gateway-failure': 'Gateway stopped' };

export function DeliveryLog() {
  const log = useDeliveryLog();
  const rows = log.data ?? [];
  return (
    <section className="form" aria-labelledby="delivery-log-heading" data-testid="delivery-log">
      <h2 className="card-header" id="delivery-log-heading">Delivery log</h2>
      {log.isError && <p className="settings-error">Could not load the delivery log.</p>}
      {!log.isError && rows.length === 0 && <p className="settings-note">Nothing sent yet.</p>}
      <ul className="users-list">
        {rows.map((d) => (
          <li key={d.id} className="delivery-row" data-testid={`delivery-${d.id}`}>
            <div className="delivery-head">
              <span className={`delivery-status delivery-${d.status}`}>{STATUS_TEXT[d.status]}</span>
              <span className="users-name">{d.channelId}</span>
              <span>{d.title}</span>
              <span className="settings-note">{REASON_TEXT[d.reason]} · {formatTimestamp(d.createdAt)}</span>
            </div>
            <div className="settings-note">
              {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
              {d.status === 'pending' && d.nextAttemptAt && <> · next {formatTimestamp(d.nextAttemptAt)}</>}
              {d.lastError && <> · last error: {d.lastError}</>}
            </div>
            {d.tries.length > 0 && (
              <details>
                <summary className="settings-note">Attempts</summary>
                <ol className="delivery-tries">
                  {d.tries.map((t, i) => (
                    <li key={i}>{formatTimestamp(t.at)}: {t.ok ? 'ok' : 'failed'}{t.detail ? ` (${t.detail})` : ''}</li>
                  ))}
                </ol>
              </details>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
