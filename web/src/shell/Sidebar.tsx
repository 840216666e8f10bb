// Sidebar navigation. On small screens it is an off-canvas drawer opened by the header's menu button.
import { NavLink } from 'react-router';
import { Leaf, X } from 'lucide-react';
import { NAV_ITEMS } from './nav-items.ts';

export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
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
        <nav className="sidebar-nav">
          {NAV_ITEMS.map(({ label, to, icon: Icon, end }) => (
            <NavLink key={to} to={to} end={end} onClick={onClose} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
              <Icon size={18} aria-hidden />
              <span>{label}</span>
            </NavLink>
          ))}
        </nav>
        <div className="sidebar-footer">
          <span className="status-dot status-dot-on" aria-hidden />
          System Online
        </div>
      </aside>
    </>
  );
}
