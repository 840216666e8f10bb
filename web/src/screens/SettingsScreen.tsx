// Settings (docs/product.md §2, "Settings"): five tabs, and Users for admins (docs/decisions.md, Users and roles).
// Profile, notifications and password are the user's own (viewers too); thresholds are disabled for
// viewers, system settings and Reset All for everyone but admins, each saying why.
import { useEffect, useState } from 'react';
import { settingsGreenhouseId, useSettings } from '../api/settings.ts';
import { toast } from '../components/toast/index.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useHardwareMode } from '../api/automation.ts';
import { ConnectionBanner } from './overview/ConnectionBanner.tsx';
import { CalibrationTab } from './settings/CalibrationTab.tsx';
import { ChannelsTab } from './settings/ChannelsTab.tsx';
import { DeviceSafetyTab } from './settings/DeviceSafetyTab.tsx';
import { NotificationsTab } from './settings/NotificationsTab.tsx';
import { PhoneAppTab } from './settings/PhoneAppTab.tsx';
import { ProfileTab } from './settings/ProfileTab.tsx';
import { SecurityTab } from './settings/SecurityTab.tsx';
import { SimulatorTab } from './settings/SimulatorTab.tsx';
import { SystemTab } from './settings/SystemTab.tsx';
import { ThresholdsTab } from './settings/ThresholdsTab.tsx';
import { UsersTab } from './settings/UsersTab.tsx';
import { isAdmin } from '../auth/permissions.ts';
import './settings/settings.css';

const TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'phone', label: 'Phone App' },
  { id: 'thresholds', label: 'Alert Thresholds' },
  { id: 'system', label: 'System' },
  { id: 'devices', label: 'Device Safety' },
  { id: 'security', label: 'Security' },
  { id: 'simulator', label: 'Simulator' },
  { id: 'users', label: 'Users' },
  { id: 'channels', label: 'Alert Channels' },
  { id: 'calibration', label: 'Calibration' },
] as const;
type TabId = (typeof TABS)[number]['id'];
/** Tabs only an admin sees: the server answers 403 to anyone else. */
const ADMIN_TABS: readonly TabId[] = ['users', 'channels', 'calibration'];

export function SettingsScreen() {
  // ?tab=users: the header's access-request badge opens the Users tab directly.
  const [tab, setTab] = useState<TabId>(() => (TABS.some((t) => t.id === new URLSearchParams(window.location.search).get('tab')) ? (new URLSearchParams(window.location.search).get('tab') as TabId) : 'profile'));
  const { user } = useAuth();
  const { isError } = useSettings(settingsGreenhouseId(user), { live: false });
  // The Simulator tab exists only for admins of a gateway running the simulator (its API is 404 elsewhere).
  const simulatorMode = useHardwareMode() === 'simulator';
  const tabs = TABS.filter((t) => (t.id !== 'simulator' || (simulatorMode && isAdmin(user))) && (isAdmin(user) || !ADMIN_TABS.includes(t.id)));
  useEffect(() => {
    if (isError) toast.error('Failed to load settings');
  }, [isError]);
  return (
    <div className="screen">
      <h1 className="screen-title">Settings</h1>
      <ConnectionBanner />
      <div className="tabs" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={`tab${tab === t.id ? ' active' : ''}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <section className="card settings-panel" role="tabpanel">
        {user && tab === 'profile' && <ProfileTab user={user} />}
        {user && tab === 'notifications' && <NotificationsTab user={user} />}
        {tab === 'phone' && <PhoneAppTab />}
        {tab === 'thresholds' && <ThresholdsTab />}
        {tab === 'system' && <SystemTab />}
        {tab === 'devices' && <DeviceSafetyTab />}
        {tab === 'security' && <SecurityTab />}
        {tab === 'simulator' && <SimulatorTab />}
        {tab === 'users' && isAdmin(user) && <UsersTab />}
        {tab === 'channels' && isAdmin(user) && <ChannelsTab />}
        {tab === 'calibration' && isAdmin(user) && <CalibrationTab />}
      </section>
    </div>
  );
}
