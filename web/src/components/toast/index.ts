// Public entry of the toast component: `import { toast } from '../components/toast/index.ts'`.
export { toast, DEFAULT_TOAST_MS, type ToastKind, type ToastOptions } from './toast-store.ts';
export { NEW_ALERT_TOAST, toastNewAlert } from './alert-toast.ts';
export { Toaster } from './Toaster.tsx';
