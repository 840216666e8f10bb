// System tab: retention, sampling interval, automatic backup, maintenance mode, the greenhouse's site
// (latitude and longitude, for sunrise/sunset schedules; applied at once); the MQTT bridge's state.
import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../../server/contract/settings.ts';
import { api } from '../../api/client.ts';
import { useAction, useSettingsForm } from './hooks.ts';
import { MqttStatusLine } from './MqttStatusLine.tsx';
import { SettingsLoadState } from './SettingsLoadState.tsx';
import { SubmitRow } from './SubmitRow.tsx';

interface Form {
  dataRetentionDays: string;
  updateInterval: string;
  escalateAfterMinutes: string;
  autoBackup: boolean;
  maintenanceMode: boolean;
  latitude: string;
  longitude: string;
}

const toForm = ({ systemSettings: s }: Settings): Form => ({
  dataRetentionDays: String(s.dataRetentionDays),
  updateInterval: String(s.updateInterval),
  escalateAfterMinutes: String(s.escalateAfterMinutes),
  autoBackup: s.autoBackup,
  maintenanceMode: s.maintenanceMode,
  latitude: s.site ? String(s.site.latitude) : '',
  longitude: s.site ? String(s.site.longitude) : '',
});

/** Both empty: no site (clock-time schedules only); both numbers in range: the site; else the problem. */
export function siteFromForm(latitude: string, longitude: string): { latitude: number; longitude: number } | null | string {
  if (latitude.trim() === '' && longitude.trim() === '') return null;
  const lat = Number(latitude);
  const lon = Number(longitude);
  if (latitude.trim() === '' || !Number.isFinite(lat) || lat < -90 || lat > 90) return 'Latitude must be a number from -90 to 90 (north positive)';
  if (longitude.trim() === '' || !Number.isFinite(lon) || lon < -180 || lon > 180) return 'Longitude must be a number from -180 to 180 (east positive)';
  return { latitude: lat, longitude: lon };
}

export function SystemTab() {
  // docs/decisions.md, Users and roles: retention, interval, backup and maintenance mode are the admin's.
  const { greenhouseId: id, editable, reason, query, form, setForm, adopt } = useSettingsForm(toForm, 'admin');
  const { busy, run } = useAction();
  const [siteError, setSiteError] = useState<string | null>(null);

  function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const site = siteFromForm(form.latitude, form.longitude);
    if (typeof site === 'string') {
      setSiteError(site);
      return;
    }
    setSiteError(null);
    const { latitude: _lat, longitude: _lon, ...rest } = form;
    // Numbers as numbers: the server names the field when one is out of range.
    const systemSettings = { ...rest, dataRetentionDays: Number(form.dataRetentionDays), updateInterval: Number(form.updateInterval), escalateAfterMinutes: Number(form.escalateAfterMinutes), site };
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
          Resend unacknowledged CRITICAL after (minutes)
          <input type="number" name="escalateAfterMinutes" min={1} max={1440} step={1} value={form.escalateAfterMinutes} disabled={!editable}
            onChange={(e) => setForm({ ...form, escalateAfterMinutes: e.target.value })} />
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
      <fieldset className="settings-site">
        <legend>Greenhouse location (for sunrise and sunset schedules)</legend>
        <div className="settings-pair">
          <label className="field">
            Latitude (°, north positive)
            <input type="number" name="latitude" step="any" value={form.latitude} disabled={!editable}
              onChange={(e) => setForm({ ...form, latitude: e.target.value })} />
          </label>
          <label className="field">
            Longitude (°, east positive)
            <input type="number" name="longitude" step="any" value={form.longitude} disabled={!editable}
              onChange={(e) => setForm({ ...form, longitude: e.target.value })} />
          </label>
        </div>
        <span className="field-hint">Leave both empty to use clock times only. Schedules use the new location at once.</span>
        {siteError && <p className="field-error" role="alert">{siteError}</p>}
      </fieldset>
      <SubmitRow label="Save Settings" disabled={busy || !editable} />
      <MqttStatusLine />
    </form>
  );
}
