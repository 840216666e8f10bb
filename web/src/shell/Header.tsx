// Top bar (docs/product.md §2): title, connection indicator, urgent-alert bell, user, logout.
import { Link } from 'react-router';
import { Bell, LogOut, Menu, UserPlus, Wifi, WifiOff } from 'lucide-react';
import { countUrgentAlerts, useActiveAlerts } from '../api/queries.ts';
import { useUsers } from '../api/users.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';

export function Header({ onMenu, menuOpen }: { onMenu: () => void; menuOpen: boolean }) {
  const { user, logout } = useAuth();
  const { connected } = useRealtime();
  const urgent = countUrgentAlerts(useActiveAlerts().data);
  // Beside the bell, for admins: accounts waiting for a role (someone is standing in the greenhouse
  // waiting to be let in). Polled, as only admins may list accounts.
  const waiting = (useUsers(user?.role === 'admin', 15_000).data ?? []).filter((u) => u.pending).length;

  return (
    <header className="header">
      <button
        type="button"
        className="icon-button menu-button"
        aria-label="Open menu"
        aria-controls="sidebar"
        aria-expanded={menuOpen}
        onClick={onMenu}
      >
        <Menu size={22} aria-hidden />
      </button>
      <div className="header-title">
        <h1>Greenhouse Dashboard</h1>
        <p className="muted">Real-time monitoring and control</p>
      </div>
      <div className="header-actions">
        <span className={`connection ${connected ? 'connection-on' : 'connection-off'}`} data-testid="connection-status">
          {connected ? <Wifi size={16} aria-hidden /> : <WifiOff size={16} aria-hidden />}
          <span className="connection-label">{connected ? 'Connected' : 'Disconnected'}</span>
        </span>
        <Link
          to="/dashboard/alerts"
          className="icon-button bell"
          aria-label={`${urgent} critical or high alerts`}
          data-testid="alert-bell"
        >
          <Bell size={20} aria-hidden />
          {urgent > 0 && <span className="bell-count">{urgent}</span>}
        </Link>
        {waiting > 0 && (
          <Link
            to="/dashboard/settings?tab=users"
            className="icon-button bell"
            aria-label={`${waiting} access ${waiting === 1 ? 'request' : 'requests'} waiting`}
            title={`${waiting} access ${waiting === 1 ? 'request' : 'requests'} waiting`}
            data-testid="access-requests"
          >
            <UserPlus size={20} aria-hidden />
            <span className="bell-count">{waiting}</span>
          </Link>
        )}
        {user && (
          <span className="header-user">
            <span className="header-username">{user.username}</span>
            <span className="header-role">{user.role}</span>
          </span>
        )}
        <button type="button" className="icon-button" aria-label="Logout" onClick={logout}>
          <LogOut size={20} aria-hidden />
        </button>
      </div>
    </header>
  );
}
