// Notifications tab: the user's own preferences; the theme applies at once, before saving.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Preferences, PublicUser, Theme } from '../../../../server/contract/user.ts';
import { useEmailConfigured } from '../../api/settings.ts';
import { setTemperatureUnit, useTemperatureUnit, type TemperatureUnit } from '../../units.ts';
import { useProfileSave } from './hooks.ts';
import { SubmitRow } from './SubmitRow.tsx';

export function NotificationsTab({ user }: { user: PublicUser }) {
  const [prefs, setPrefs] = useState<Preferences>(user.preferences);
  const { busy, save: saveProfile } = useProfileSave();
  const emailConfigured = useEmailConfigured();
  const temperatureUnit = useTemperatureUnit();
  const savedTheme = useRef(user.preferences.theme);
  savedTheme.current = user.preferences.theme;

  // Preview the chosen theme now; leaving the tab unsaved goes back to the saved one.
  useEffect(() => {
    document.documentElement.dataset.theme = prefs.theme;
  }, [prefs.theme]);
  useEffect(() => () => void (document.documentElement.dataset.theme = savedTheme.current), []);

  const set = <K extends keyof Preferences>(key: K, value: Preferences[K]) => setPrefs((p) => ({ ...p, [key]: value }));

  function save(event: FormEvent) {
    event.preventDefault();
    void saveProfile({ preferences: prefs });
  }

  return (
    <form className="form" onSubmit={save}>
      <label className="checkbox">
        <input type="checkbox" checked={prefs.alertNotifications} onChange={(e) => set('alertNotifications', e.target.checked)} />
        In-app notifications
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={prefs.emailNotifications} onChange={(e) => set('emailNotifications', e.target.checked)} />
        Email notifications (critical alerts)
      </label>
      {emailConfigured === false && (
        <p className="settings-warning" data-testid="email-not-configured">
          Email is not configured on this gateway: no emails will be sent until an administrator sets up SMTP.
        </p>
      )}
      <fieldset className="settings-group">
        <legend>Theme</legend>
        {(['light', 'dark'] as Theme[]).map((theme) => (
          <label key={theme} className="checkbox">
            <input type="radio" name="theme" value={theme} checked={prefs.theme === theme} onChange={() => set('theme', theme)} />
            {theme === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </fieldset>
      <fieldset className="settings-group" data-testid="temperature-unit">
        <legend>Temperature unit</legend>
        {(['C', 'F'] as TemperatureUnit[]).map((unit) => (
          <label key={unit} className="checkbox">
            <input type="radio" name="temperatureUnit" value={unit} checked={temperatureUnit === unit} onChange={() => setTemperatureUnit(unit)} />
            {unit === 'C' ? 'Celsius (°C)' : 'Fahrenheit (°F)'}
          </label>
        ))}
        <span className="field-hint">Applies at once, on this device. The gateway and its settings stay in °C.</span>
      </fieldset>
      <SubmitRow label="Save Preferences" disabled={busy} />
    </form>
  );
}
