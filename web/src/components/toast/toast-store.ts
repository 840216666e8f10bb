// A tiny toast store usable from anywhere (React components, the API layer, the realtime link).
// `toast.success('Saved')`, `toast.error(msg, { durationMs: 8000 })`. Default 4000 ms (docs/product.md §9).
// New-alert toasts use: CRITICAL error 8000, HIGH error 6000, MEDIUM warning 4000, others info 3000.

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  durationMs: number;
  key?: string;
}

export interface ToastOptions {
  durationMs?: number;
  /**
   * The action this toast reports (e.g. `control:fan-1`): the next outcome of the same action replaces
   * it, so an error toast disappears as soon as the next attempt succeeds.
   */
  key?: string;
}

export const DEFAULT_TOAST_MS = 4000;
/** At most this many on screen; a new one pushes the oldest out (four alert toasts covered half the Overview). */
export const MAX_VISIBLE_TOASTS = 3;

type Listener = (toasts: readonly Toast[]) => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(): void {
  for (const listener of listeners) listener(toasts);
}

function show(kind: ToastKind, message: string, options: ToastOptions = {}): number {
  const id = nextId++;
  const durationMs = options.durationMs ?? DEFAULT_TOAST_MS;
  // The same text already showing (e.g. repeated failures): restart its timer instead of stacking a copy.
  const twin = toasts.find((t) => t.message === message && t.kind === kind);
  if (twin) dismissQuietly(twin.id);
  if (options.key !== undefined) for (const t of toasts.filter((t) => t.key === options.key)) dismissQuietly(t.id);
  toasts = [...toasts, { id, kind, message, durationMs, ...(options.key !== undefined ? { key: options.key } : {}) }];
  timers.set(id, setTimeout(() => dismiss(id), durationMs));
  while (toasts.length > MAX_VISIBLE_TOASTS) dismissQuietly(toasts[0]!.id);
  emit();
  return id;
}

export function dismiss(id: number): void {
  if (dismissQuietly(id)) emit();
}

function dismissQuietly(id: number): boolean {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  const next = toasts.filter((t) => t.id !== id);
  if (next.length === toasts.length) return false;
  toasts = next;
  return true;
}

/** The action reported under `key` succeeded without a toast of its own: its error goes away. */
export function clearKey(key: string): void {
  let changed = false;
  for (const t of toasts.filter((t) => t.key === key)) changed = dismissQuietly(t.id) || changed;
  if (changed) emit();
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
  dismiss,
  clear: clearKey,
};
