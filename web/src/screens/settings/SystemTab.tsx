// System tab: retention, sampling interval, automatic backup, maintenance mode.
import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Settings, SystemSettings } from '../../../../server/contract/settings.ts';
import { api, errorMessage } from '../../api/client.ts';
import { settingsGreenhouseId, settingsKey, useSettings } from '../../api/settings.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { canModify } from '../../auth/permissions.ts';
import { toast } from '../../components/toast/index.ts';
import { SettingsLoadState } from './SettingsLoadState.tsx';

interface Form {
  dataRetentionDays: string;
  updateInterval: string;
  autoBackup: boolean;
  maintenanceMode: boolean;
}

const toForm = (s: SystemSettings): Form => ({
  dataRetentionDays: String(s.dataRetentionDays),
  updateInterval: String(s.updateInterval),
  autoBackup: s.autoBackup,
  maintenanceMode: s.maintenanceMode,
});

export function SystemTab() {
  const { user } = useAuth();
  const id = settingsGreenhouseId(user);
  const editable = canModify(user);
  const query = useSettings(id);
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (query.data) setForm(toForm(query.data.systemSettings));
  }, [query.data]);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    setBusy(true);
    try {
      const settings = await api.put<Settings>(`/api/settings/${id}/system`, {
        // Numbers as numbers: the server names the field when one is out of range.
        systemSettings: { ...form, dataRetentionDays: Number(form.dataRetentionDays), updateInterval: Number(form.updateInterval) },
      });
      queryClient.setQueryData(settingsKey(id), settings);
      setForm(toForm(settings.systemSettings));
      toast.success('System settings updated successfully');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update system settings'));
    } finally {
      setBusy(false);
    }
  }

  if (!form) return <SettingsLoadState failed={query.isError} />;
  return (
    <form className="form" onSubmit={save}>
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
      <div className="settings-actions">
        <button type="submit" className="btn btn-primary" disabled={busy || !editable}>
          Save Settings
        </button>
      </div>
    </form>
  );
}
