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

/** The settling of a call that is replacing the token (password change, Extend Session), if one is running. */
let tokenChange: Promise<void> | null = null;

/**
 * Runs a call that replaces the session's token. The gateway revokes the old token while it answers
 * (and closes the websocket opened with it, 4401), so a refusal of the old token may arrive before the
 * new one is stored: while such a call runs, a refusal waits for it to settle, then counts only if it
 * was about the token still in use.
 */
export function replacingToken<T>(call: Promise<T>): Promise<T> {
  const settled = call.then(
    () => undefined,
    () => undefined,
  );
  tokenChange = settled;
  void settled.then(() => {
    if (tokenChange === settled) tokenChange = null;
  });
  return call;
}

/** `rejectedToken`: the token the refused request or socket used; a newer session is not signed out for it. */
export function signalUnauthorized(rejectedToken: string): void {
  const decide = () => {
    if (getToken() !== rejectedToken) return;
    clearSession();
    if (unauthorizedHandler) unauthorizedHandler();
    else if (location.pathname !== '/login') location.assign('/login');
  };
  // After the replacing call's own continuation (which stores the new token) has run: a macrotask later.
  if (tokenChange) void tokenChange.then(() => setTimeout(decide, 0));
  else decide();
}
