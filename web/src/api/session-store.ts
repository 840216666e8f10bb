// The persisted session: token and user in localStorage under the keys the spec fixes ('token', 'user').
// Kept apart from the API client so the client, the auth provider and the realtime link share one source.
import type { PublicUser } from '../../../server/contract/user.ts';

const TOKEN_KEY = 'token';
const USER_KEY = 'user';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function getStoredUser(): PublicUser | null {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PublicUser;
  } catch {
    return null; // a corrupt entry is treated as no user; /api/auth/me will restore it
  }
}

export function saveSession(token: string, user: PublicUser): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function saveUser(user: PublicUser): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

/**
 * Called when any authenticated call answers 401. The AuthProvider registers a handler that drops
 * its state and navigates to /login; until then (or outside React) we fall back to a full redirect.
 */
let unauthorizedHandler: (() => void) | null = null;

export function onUnauthorized(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

export function signalUnauthorized(): void {
  clearSession();
  if (unauthorizedHandler) unauthorizedHandler();
  else if (location.pathname !== '/login') location.assign('/login');
}
