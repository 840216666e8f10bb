// How a new alert is toasted (docs/product.md §8): CRITICAL error style 8 s, HIGH error 6 s,
// MEDIUM warning style 4 s, others plain 3 s. The alerts feature supplies the message text.
import type { Severity } from '../../../../server/contract/alert.ts';
import { toast } from './toast-store.ts';

export const NEW_ALERT_TOAST: Record<Severity, { kind: 'error' | 'warning' | 'info'; durationMs: number }> = {
  CRITICAL: { kind: 'error', durationMs: 8000 },
  HIGH: { kind: 'error', durationMs: 6000 },
  MEDIUM: { kind: 'warning', durationMs: 4000 },
  LOW: { kind: 'info', durationMs: 3000 },
};

export function toastNewAlert(severity: Severity, message: string): number {
  const { kind, durationMs } = NEW_ALERT_TOAST[severity] ?? NEW_ALERT_TOAST.LOW;
  return toast[kind](message, { durationMs });
}
