// Add or edit one notification channel. The server checks every field (400 naming it); its message is
// shown under the form as well as in a toast.
import { useState, type FormEvent } from 'react';
import type { ChannelKind } from '../../../../../server/contract/notification.ts';
import type { Severity } from '../../../../../server/contract/alert.ts';
import { errorMessage } from '../../../api/client.ts';
import { useChannelActions, type ChannelForm } from '../../../api/notifications.ts';
import { toast } from '../../../components/toast/index.ts';
import { KIND_TEXT } from './channel-form.ts';

const SEVERITIES: Severity[] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

export function ChannelEditor({ initial, existing, onDone }: { initial: ChannelForm; existing: boolean; onDone: () => void }) {
  const [form, setForm] = useState<ChannelForm>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { save } = useChannelActions();
  const text = KIND_TEXT[form.kind];
  const set = <K extends keyof ChannelForm>(key: K, value: ChannelForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await save({ form, existing });
      setError(null);
      toast.success(existing ? 'Channel updated' : 'Channel added', { key: 'channel-save' });
      onDone();
    } catch (err) {
      const message = errorMessage(err, 'Failed to save channel');
      setError(message);
      toast.error(message, { key: 'channel-save' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form settings-group" onSubmit={submit} aria-label={existing ? `Edit channel ${initial.channelId}` : 'Add a channel'} data-testid="channel-editor">
      <div className="settings-pair">
        <label className="field">
          Name
          <input name="channelId" value={form.channelId} required maxLength={64} pattern="[A-Za-z0-9][A-Za-z0-9_.\-]*" disabled={existing}
            onChange={(e) => set('channelId', e.target.value)} />
        </label>
        <label className="field">
          Kind
          <select name="kind" value={form.kind} onChange={(e) => set('kind', e.target.value as ChannelForm['kind'])}>
            {(Object.keys(KIND_TEXT) as ChannelKind[]).map((kind) => <option key={kind} value={kind}>{KIND_TEXT[kind].label}</option>)}
          </select>
        </label>
        <label className="field">
          Minimum severity
          <select name="minSeverity" value={form.minSeverity} onChange={(e) => set('minSeverity', e.target.value as Severity)}>
            {SEVERITIES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
      </div>
      <label className="field">
        {text.target}
        <input name="target" value={form.target} required onChange={(e) => set('target', e.target.value)} />
        <span className="field-hint">{text.targetHint}</span>
      </label>
      {form.kind !== 'email' && (
        <label className="field">
          {text.secret}
          <input name="secret" type="password" autoComplete="off" value={form.secret} onChange={(e) => set('secret', e.target.value)}
            placeholder={existing ? 'Leave empty to keep the stored one' : ''} />
          <span className="field-hint">{text.secretHint}</span>
        </label>
      )}
      <fieldset className="settings-group">
        <legend>Quiet hours</legend>
        <label className="checkbox">
          <input type="checkbox" name="quiet" checked={form.quietHours !== null}
            onChange={(e) => set('quietHours', e.target.checked ? { from: '22:00', to: '06:00' } : null)} />
          Hold alerts back at night (an unacknowledged CRITICAL still comes through after the escalation time)
        </label>
        {form.quietHours && (
          <div className="settings-pair">
            <label className="field">
              From
              <input type="time" name="quietFrom" value={form.quietHours.from} required onChange={(e) => set('quietHours', { ...form.quietHours!, from: e.target.value })} />
            </label>
            <label className="field">
              To
              <input type="time" name="quietTo" value={form.quietHours.to} required onChange={(e) => set('quietHours', { ...form.quietHours!, to: e.target.value })} />
            </label>
          </div>
        )}
      </fieldset>
      {error && <p className="settings-error" role="alert">{error}</p>}
      <div className="settings-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>{existing ? 'Save Channel' : 'Add Channel'}</button>
        <button type="button" className="btn btn-secondary" onClick={onDone} disabled={busy}>Cancel</button>
      </div>
    </form>
  );
}
