// Alert channels (admins): where alerts go besides this dashboard (webhook, ntfy, Telegram, e-mail),
// with a test button per channel, and the delivery log below (docs/decisions.md, "Alerts that reach a grower").
import { useState } from 'react';
import type { NotificationChannel } from '../../../../server/contract/notification.ts';
import { errorMessage } from '../../api/client.ts';
import { useChannelActions, useChannels, useDeliveryLog } from '../../api/notifications.ts';
import { useConfirm } from '../../components/confirm/ConfirmProvider.tsx';
import { toast } from '../../components/toast/index.ts';
import { formatTimestamp } from '../../format.ts';
import { ChannelEditor } from './channels/ChannelEditor.tsx';
import { channelStatus, type ChannelStatus } from './channels/channel-status.ts';
import { EMPTY_FORM, formOf, KIND_TEXT } from './channels/channel-form.ts';
import { DeliveryLog } from './channels/DeliveryLog.tsx';

export function ChannelsTab() {
  const channels = useChannels();
  const log = useDeliveryLog();
  const actions = useChannelActions();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<NotificationChannel | 'new' | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [results, setResults] = useState<Record<string, { ok: boolean; text: string }>>({});

  async function test(channelId: string) {
    setTesting(channelId);
    try {
      const result = await actions.test(channelId);
      const text = result.delivered ? `Delivered (${result.detail ?? 'ok'})` : `Failed: ${result.detail ?? 'no answer'}`;
      setResults((r) => ({ ...r, [channelId]: { ok: result.delivered, text } }));
      if (result.delivered) toast.success(`Test sent to ${channelId}`, { key: `test:${channelId}` });
      else toast.error(`Test to ${channelId} failed: ${result.detail ?? 'no answer'}`, { key: `test:${channelId}` });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to test channel'), { key: `test:${channelId}` });
    } finally {
      setTesting(null);
    }
  }

  async function remove(channelId: string) {
    if (!(await confirm({ title: 'Delete channel', message: `Delete ${channelId}? Alerts stop going there.`, confirmLabel: 'Delete', danger: true }))) return;
    try {
      await actions.remove(channelId);
      toast.success('Channel deleted', { key: `delete:${channelId}` });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to delete channel'), { key: `delete:${channelId}` });
    }
  }

  const list = channels.data ?? [];
  return (
    <div className="stack" data-testid="channels-tab">
      <section className="form" aria-labelledby="channels-heading">
        <h2 className="card-header" id="channels-heading">Alert channels</h2>
        <p className="settings-note">
          Alerts at or above a channel’s minimum severity go there at once, except in its quiet hours. A CRITICAL nobody
          acknowledges is sent again to every channel, quiet hours or not (System tab: escalation time).
        </p>
        {channels.isError && <p className="settings-error">{errorMessage(channels.error, 'Could not load the channels')}</p>}
        {!channels.isError && list.length === 0 && <p className="settings-note">No channels yet: alerts reach only this dashboard and opted-in e-mail.</p>}
        <ul className="users-list">
          {list.map((c) => (
            <li key={c.channelId} className="users-row" data-testid={`channel-${c.channelId}`}>
              <span className="users-name">{c.channelId}</span>
              <span className="channel-kind">{KIND_TEXT[c.kind].label}</span>
              <span className="channel-target">{c.target}</span>
              <span className="settings-note">
                {c.minSeverity} and above{c.quietHours ? ` · quiet ${c.quietHours.from}–${c.quietHours.to}` : ''}{c.hasSecret ? ' · secret set' : ''}
              </span>
              <span className="settings-actions">
                <button type="button" className="btn btn-secondary" disabled={testing !== null} onClick={() => void test(c.channelId)}>
                  {testing === c.channelId ? 'Sending…' : 'Test'}
                </button>
                <button type="button" className="btn btn-secondary" onClick={() => setEditing(c)}>Edit</button>
                <button type="button" className="btn btn-danger" onClick={() => void remove(c.channelId)}>Delete</button>
              </span>
              <DeliveryHealth status={channelStatus(log.data ?? [], c.channelId)} channelId={c.channelId} />
              {results[c.channelId] && (
                <span className={results[c.channelId]!.ok ? 'channel-result-ok' : 'settings-error'} data-testid={`test-result-${c.channelId}`}>
                  {results[c.channelId]!.text}
                </span>
              )}
            </li>
          ))}
        </ul>
        {editing === null && (
          <div className="settings-actions">
            <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>Add Channel</button>
          </div>
        )}
        {editing !== null && (
          <ChannelEditor
            key={editing === 'new' ? 'new' : editing.channelId}
            initial={editing === 'new' ? EMPTY_FORM : formOf(editing)}
            existing={editing !== 'new'}
            onDone={() => setEditing(null)}
          />
        )}
      </section>
      <DeliveryLog />
    </div>
  );
}

/** The channel's newest attempt: a channel that fails says so on its own row. */
function DeliveryHealth({ status, channelId }: { status: ChannelStatus; channelId: string }) {
  if (status.state === 'unused') return null;
  if (status.state === 'delivering') {
    return <span className="channel-result-ok" data-testid={`channel-health-${channelId}`}>Last delivered {formatTimestamp(status.lastAt)}</span>;
  }
  const waiting = status.retrying > 0 ? ` · ${status.retrying} waiting to be sent again` : '';
  return (
    <span className="settings-error" data-testid={`channel-health-${channelId}`}>
      Last attempt failed ({formatTimestamp(status.lastAt)}){status.detail ? `: ${status.detail}` : ''}{waiting}
    </span>
  );
}
