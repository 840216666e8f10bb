// Sidebar navigation. On small screens it is an off-canvas drawer opened by the header's menu button.
import { NavLink } from 'react-router';
import { Leaf, X } from 'lucide-react';
import { useReachability } from '../api/reachability.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';
import { NAV_ITEMS } from './nav-items.ts';

export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user } = useAuth();
  return (
    <>
      {open && <div className="sidebar-backdrop" onClick={onClose} aria-hidden />}
      <aside id="sidebar" className={`sidebar${open ? ' sidebar-open' : ''}`} aria-label="Main navigation">
        <div className="sidebar-brand">
          <Leaf size={22} aria-hidden />
          <span>Greenhouse</span>
          <button type="button" className="icon-button sidebar-close" aria-label="Close menu" onClick={onClose}>
            <X size={20} aria-hidden />
          </button>
        </div>
        {user && (
          <div className="sidebar-user" data-testid="sidebar-user">
            <strong>{user.username}</strong>
            <span className="header-role">{user.role}</span>
          </div>
        )}
        <nav className="sidebar-nav">
          {NAV_ITEMS.map(({ label, to, icon: Icon, end }) => (
            <NavLink key={to} to={to} end={end} onClick={onClose} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
              <Icon size={18} aria-hidden />
              <span>{label}</span>
            </NavLink>
          ))}
        </nav>
        <SystemStatus />
      </aside>
    </>
  );
}

/** The sidebar's system note, from what is actually known: the gateway answers, the live link is up. */
function SystemStatus() {
  const { unreachableSinceMs } = useReachability();
  const { connected } = useRealtime();
  const [tone, text] =
    unreachableSinceMs !== null ? ['bad', 'Gateway unreachable'] : connected ? ['on', 'System Online'] : ['warn', 'Live updates reconnecting'];
  return (
    <div className="sidebar-footer" role="status" data-testid="system-status">
      <span className={`status-dot status-dot-${tone}`} aria-hidden />
      {text}
    </div>
  );
}
