// Sidebar entries (docs/product.md §2). A new screen: add its route in DashboardRoutes.tsx and its link here.
import { Activity, BarChart3, Bell, LayoutDashboard, Power, Settings, Thermometer, type LucideIcon } from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Overview must match /dashboard exactly, not every /dashboard/* path. */
  end?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Overview', to: '/dashboard', icon: LayoutDashboard, end: true },
  { label: 'Sensor Monitoring', to: '/dashboard/sensors', icon: Activity },
  { label: 'Device Control', to: '/dashboard/devices', icon: Power },
  { label: 'Climate Program', to: '/dashboard/climate', icon: Thermometer },
  { label: 'Alert System', to: '/dashboard/alerts', icon: Bell },
  { label: 'Analytics', to: '/dashboard/analytics', icon: BarChart3 },
  { label: 'Settings', to: '/dashboard/settings', icon: Settings },
];
