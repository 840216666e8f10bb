// Top bar (spec section 2): title, connection indicator, urgent-alert bell, user, logout.
import { Link } from 'react-router';
import { Bell, LogOut, Menu, Wifi, WifiOff } from 'lucide-react';
import { countUrgentAlerts, useActiveAlerts } from '../api/queries.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';

export function Header({ onMenu, menuOpen }: { onMenu: () => void; menuOpen: boolean }) {
  const { user, logout } = useAuth();
  const { connected } = useRealtime();
  const urgent = countUrgentAlerts(useActiveAlerts().data);

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
