// Toasts for realtime alert events, mounted once in the shell (docs/product.md §8):
// newAlert -> severity-styled toast (CRITICAL 8 s, HIGH 6 s, MEDIUM 4 s, others 3 s);
// alertResolved from elsewhere -> 'Alert resolved: {type}'. Only for users with in-app notifications on.
import { useEffect } from 'react';
import { takeResolvedHere } from '../../api/alerts.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { toast, toastNewAlert } from '../../components/toast/index.ts';
import { formatAlertType } from '../../format.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';

export function AlertNotifier() {
  const { subscribe } = useRealtime();
  const enabled = useAuth().user?.preferences.alertNotifications ?? true;

  useEffect(() => {
    if (!enabled) return;
    const offNew = subscribe('newAlert', (alert) => {
      toastNewAlert(alert.severity, `New ${alert.severity} alert: ${formatAlertType(alert.alertType)} - ${alert.message}`);
    });
    const offResolved = subscribe('alertResolved', (alert) => {
      if (takeResolvedHere(alert._id)) return;
      toast.success(`Alert resolved: ${formatAlertType(alert.alertType)}`);
    });
    return () => {
      offNew();
      offResolved();
    };
  }, [subscribe, enabled]);

  return null;
}
