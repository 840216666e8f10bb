// The app's confirmation dialog, instead of the browser's window.confirm(): the same look as every
// other dialog, readable on a phone, and testable in the page. A screen asks and awaits the answer:
//   const confirm = useConfirm();
//   if (!(await confirm({ message: 'Are you sure you want to delete this alert?', confirmLabel: 'Delete' }))) return;
// Escape, the close button, a click outside and Cancel all answer false.
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Dialog } from '../Dialog.tsx';

export interface ConfirmRequest {
  /** The question, word for word (the confirmation texts are part of the product). */
  message: string;
  title?: string;
  /** The button that goes ahead ('Delete', 'Turn Off All'); 'OK' when not given. */
  confirmLabel?: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
}

type Confirm = (request: ConfirmRequest) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const settle = useRef<((answer: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    // A second question while one is open answers the first with "no": only one decision at a time.
    settle.current?.(false);
    return new Promise<boolean>((resolve) => {
      settle.current = resolve;
      setRequest(next);
    });
  }, []);

  const answer = (value: boolean) => {
    settle.current?.(value);
    settle.current = null;
    setRequest(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {request && (
        <Dialog id="confirm" role="alertdialog" title={request.title ?? 'Please confirm'} describedBy="confirm-message" onClose={() => answer(false)}>
          <p id="confirm-message" className="confirm-message">
            {request.message}
          </p>
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={() => answer(false)}>
              Cancel
            </button>
            <button type="button" className={`btn ${request.danger ? 'btn-danger' : 'btn-primary'}`} onClick={() => answer(true)}>
              {request.confirmLabel ?? 'OK'}
            </button>
          </div>
        </Dialog>
      )}
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm() needs a <ConfirmProvider> above it (App.tsx)');
  return confirm;
}
