// Public entry of the toast component: `import { toast } from '../components/toast'`.
export { toast, DEFAULT_TOAST_MS, type ToastKind, type ToastOptions } from './toast-store.ts';
export { Toaster } from './Toaster.tsx';
