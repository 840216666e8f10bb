// Renders the toast store: top-right below the header (phones: bottom edge). Mount once, near the root
// (App.tsx does). A toast never covers the control being used: when the toasts would overlap the
// element last touched or focused (the switch just tapped, the field being typed in), they move to the
// other edge of the screen.
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { X } from 'lucide-react';
import { dismiss, getToasts, subscribeToasts } from './toast-store.ts';

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The element the user is working with: the last one touched or focused, outside the toasts. */
function useControlInUse() {
  const inUse = useRef<Element | null>(null);
  useEffect(() => {
    const remember = (event: Event) => {
      const target = event.target instanceof Element ? event.target.closest('button, a, input, select, textarea, label, [role="switch"]') ?? event.target : null;
      if (target && !target.closest('.toaster')) inUse.current = target;
    };
    document.addEventListener('pointerdown', remember, true);
    document.addEventListener('focusin', remember, true);
    return () => {
      document.removeEventListener('pointerdown', remember, true);
      document.removeEventListener('focusin', remember, true);
    };
  }, []);
  return inUse;
}

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts);
  const toaster = useRef<HTMLDivElement>(null);
  const inUse = useControlInUse();
  const [flipped, setFlipped] = useState(false);
  const flippedFor = useRef<readonly unknown[] | null>(null);

  // Measured before paint, so a toast is never drawn over the control even for one frame. At most one
  // move per change of the toasts: a control as tall as the screen cannot make them jump back and forth.
  useLayoutEffect(() => {
    const box = toaster.current;
    const control = inUse.current;
    if (!box || toasts.length === 0 || !control?.isConnected || flippedFor.current === toasts) return;
    if (overlaps(box.getBoundingClientRect(), control.getBoundingClientRect())) {
      flippedFor.current = toasts;
      setFlipped((f) => !f);
    }
  }, [toasts, inUse]);

  return (
    // role=status + aria-live: screen readers announce toasts without stealing focus.
    <div ref={toaster} className={`toaster${flipped ? ' toaster-flipped' : ''}`} role="status" aria-live="polite" data-testid="toaster">
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
