// System tab: retention, sampling interval, automatic backup, maintenance mode; the MQTT bridge's state.
import type { FormEvent } from 'react';
import type { Settings } from '../../../../server/contract/settings.ts';
import { api } from '../../api/client.ts';
import { useAction, useSettingsForm } from './hooks.ts';
import { MqttStatusLine } from './MqttStatusLine.tsx';
import { SettingsLoadState } from './SettingsLoadState.tsx';
import { SubmitRow } from './SubmitRow.tsx';

interface Form {
  dataRetentionDays: string;
  updateInterval: string;
  autoBackup: boolean;
  maintenanceMode: boolean;
}

const toForm = ({ systemSettings: s }: Settings): Form => ({
  dataRetentionDays: String(s.dataRetentionDays),
  updateInterval: String(s.updateInterval),
  autoBackup: s.autoBackup,
  maintenanceMode: s.maintenanceMode,
});

export function SystemTab() {
  // design.md, Users and roles: retention, interval, backup and maintenance mode are the admin's.
  const { greenhouseId: id, editable, reason, query, form, setForm, adopt } = useSettingsForm(toForm, 'admin');
  const { busy, run } = useAction();

  function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    // Numbers as numbers: the server names the field when one is out of range.
    const systemSettings = { ...form, dataRetentionDays: Number(form.dataRetentionDays), updateInterval: Number(form.updateInterval) };
    void run(
      async () => adopt(await api.put<Settings>(`/api/settings/${id}/system`, { systemSettings })),
      'System settings updated successfully',
      'Failed to update system settings',
    );
  }

  if (!form) return <SettingsLoadState failed={query.isError} />;
  return (
    <form className="form" onSubmit={save}>
      {reason && (
        <p className="settings-warning" data-testid="role-reason">
          {reason}
        </p>
      )}
      <div className="settings-pair">
        <label className="field">
          Data Retention (days)
          <input type="number" name="dataRetentionDays" min={1} max={3650} step={1} value={form.dataRetentionDays} disabled={!editable}
            onChange={(e) => setForm({ ...form, dataRetentionDays: e.target.value })} />
        </label>
        <label className="field">
          Update Interval (seconds)
          <input type="number" name="updateInterval" min={1} max={3600} step={1} value={form.updateInterval} disabled={!editable}
            onChange={(e) => setForm({ ...form, updateInterval: e.target.value })} />
        </label>
      </div>
      <label className="checkbox">
        <input type="checkbox" name="autoBackup" checked={form.autoBackup} disabled={!editable} onChange={(e) => setForm({ ...form, autoBackup: e.target.checked })} />
        Automatic backup
      </label>
      <label className="checkbox">
        <input type="checkbox" name="maintenanceMode" checked={form.maintenanceMode} disabled={!editable} onChange={(e) => setForm({ ...form, maintenanceMode: e.target.checked })} />
        <span>
          Maintenance mode
          <span className="field-hint"> — Disable device control for maintenance</span>
        </span>
      </label>
      <SubmitRow label="Save Settings" disabled={busy || !editable} />
      <MqttStatusLine />
    </form>
  );
}
