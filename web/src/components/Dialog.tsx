// A modal dialog: backdrop (a click outside closes it), title bar with a close button, then content.
// Keyboard (WAI-ARIA dialog pattern): focus moves into the dialog when it opens, Tab and Shift+Tab
// stay inside it, Escape closes it, and focus returns to whatever opened it.
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { X } from 'lucide-react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  id: string;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** 'alertdialog' for a question that interrupts (a confirmation); 'dialog' otherwise. */
  role?: 'dialog' | 'alertdialog';
  /** The id of the text that describes the dialog (a confirmation's question). */
  describedBy?: string;
  /** A wider dialog (a table such as the control log). */
  wide?: boolean;
}

export function Dialog({ id, title, onClose, children, role = 'dialog', describedBy, wide = false }: DialogProps) {
  const titleId = `${id}-title`;
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current!;
    // The first field, else the first control (the close button), takes focus.
    const first = dialog.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled]), textarea:not([disabled])') ?? focusables(dialog)[0];
    (first ?? dialog).focus();
    // Escape also closes the dialog when focus has left it (a button inside was disabled while it had
    // focus, e.g. Preview while it runs, and focus fell back to the page): only the topmost dialog.
    const onDocumentKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || dialog.contains(document.activeElement)) return;
      const dialogs = document.querySelectorAll('[aria-modal="true"]');
      if (dialogs[dialogs.length - 1] === dialog) onCloseRef.current();
    };
    document.addEventListener('keydown', onDocumentKey);
    return () => {
      document.removeEventListener('keydown', onDocumentKey);
      // Back to the button that opened the dialog, if it is still on the page.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = focusables(dialogRef.current!);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialogRef.current!.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialogRef.current!.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="dialog-backdrop" role="presentation" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className={`dialog${wide ? ' dialog-wide' : ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        ref={dialogRef}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <X size={18} aria-hidden />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

/** A dialog form's buttons: Cancel closes it, the submit button is disabled while the form is being sent. */
export function DialogActions({ submitLabel, busy, onCancel }: { submitLabel: string; busy: boolean; onCancel: () => void }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="btn btn-secondary" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {submitLabel}
      </button>
    </div>
  );
}

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
}
