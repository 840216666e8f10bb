// Renders the toast store top-right. Mount once, near the root (App.tsx does).
import { useSyncExternalStore } from 'react';
import { X } from 'lucide-react';
import { dismiss, getToasts, subscribeToasts } from './toast-store.ts';

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts);
  return (
    // role=status + aria-live: screen readers announce toasts without stealing focus.
    <div className="toaster" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} data-testid="toast">
          <span className="toast-message">{t.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
            <X size={16} aria-hidden />
          </button>
        </div>
      ))}
    </div>
  );
}
