// Session state for the whole dashboard (docs/product.md §4): who is signed in, and the calls that change it.
//   const { user, status, login, register, logout, refresh, updateUser } = useAuth();
// status is 'loading' until the startup profile check (GET /api/auth/me) settles.
// Toast texts and default errors are the spec's (section 8). Also applies the user's theme to <html>.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PublicUser, Role, Session } from '../../../server/contract/user.ts';
import { api, ApiError, errorMessage, type Envelope } from '../api/client.ts';
import { clearSession, getStoredUser, getToken, onUnauthorized, replacingToken, saveSession, saveUser } from '../api/session-store.ts';
import { toast } from '../components/toast/index.ts';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
  role: Role;
  /** The first run's one-time code (only while the gateway has no account). */
  setupCode?: string;
}

export interface AuthContextValue {
  status: AuthStatus;
  user: PublicUser | null;
  token: string | null;
  /** Resolve true on success; failures are shown as a toast. */
  login: (username: string, password: string) => Promise<boolean>;
  register: (input: RegisterInput) => Promise<boolean>;
  logout: () => void;
  /** "Extend Session": a fresh token; a failure signs the user out. */
  refresh: () => Promise<boolean>;
  /** After a profile update: keep state and localStorage in step. */
  updateUser: (user: PublicUser) => void;
  /** A fresh session answered by another call (password change): the old token is revoked server-side. */
  adoptSession: (session: Session) => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export const NO_TOKEN = 'No token received from server';

/** Login, register and refresh answer the session inside `data` and, for older clients, at top level. */
function sessionFrom(envelope: Envelope<Partial<Session> | undefined>): Session {
  const token = envelope.data?.token ?? (envelope.token as string | undefined);
  const user = envelope.data?.user ?? (envelope.user as PublicUser | undefined);
  if (!token || !user) throw new Error(NO_TOKEN);
  return { token, user };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => getToken());
  const [user, setUser] = useState<PublicUser | null>(() => (getToken() ? getStoredUser() : null));
  const [status, setStatus] = useState<AuthStatus>(() => (getToken() ? 'loading' : 'signedOut'));

  const dropSession = useCallback(() => {
    clearSession();
    setToken(null);
    setUser(null);
    setStatus('signedOut');
    // The next user must not see this user's cached data.
    queryClient.clear();
  }, [queryClient]);

  // A 401 anywhere signs out; the route guards then send the user to /login.
  useEffect(() => {
    onUnauthorized(dropSession);
    return () => onUnauthorized(null);
  }, [dropSession]);

  // Startup profile check: a stored token is only trusted once the server accepts it.
  useEffect(() => {
    if (!getToken()) return;
    let cancelled = false;
    api
      .get<PublicUser>('/api/auth/me')
      .then((me) => {
        if (cancelled) return;
        saveUser(me);
        setUser(me);
        setStatus('signedIn');
      })
      .catch((err) => {
        if (cancelled) return;
        console.error('Profile check failed:', err);
        // No answer at all (gateway restarting, page unloading mid-request) proves nothing about the
        // token: keep the stored session rather than sign the user out. Any answer that refuses it
        // (docs/product.md §4: a failed profile check) clears it.
        const stored = getStoredUser();
        if (err instanceof ApiError && err.status === 0 && stored) {
          setUser(stored);
          setStatus('signedIn');
          return;
        }
        dropSession();
      });
    return () => {
      cancelled = true;
    };
    // Runs once at startup only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const startSession = useCallback((session: Session) => {
    saveSession(session.token, session.user);
    setToken(session.token);
    setUser(session.user);
    setStatus('signedIn');
  }, []);

  const login = useCallback(
    async (username: string, password: string) => {
      try {
        const envelope = await api.request<Partial<Session>>('POST', '/api/auth/login', { username, password }, { anonymous: true });
        const session = sessionFrom(envelope);
        startSession(session);
        toast.success(`Welcome back, ${session.user.username}!`, { key: 'sign-in' });
        return true;
      } catch (err) {
        toast.error(errorMessage(err, 'Login failed'), { key: 'sign-in' });
        return false;
      }
    },
    [startSession],
  );

  const register = useCallback(
    async (input: RegisterInput) => {
      try {
        const envelope = await api.request<Partial<Session>>('POST', '/api/auth/register', input, { anonymous: true });
        const session = sessionFrom(envelope);
        startSession(session);
        toast.success(`Welcome, ${session.user.username}!`, { key: 'sign-in' });
        // A pending account waits on its own screen (PendingScreen), which says so.
        return true;
      } catch (err) {
        toast.error(errorMessage(err, 'Registration failed'), { key: 'sign-in' });
        return false;
      }
    },
    [startSession],
  );

  const logout = useCallback(() => {
    // The gateway revokes the token, so a copy left behind (another tab, a log) is worth nothing;
    // the local session goes at once whether or not the gateway answers.
    if (getToken()) void api.request('POST', '/api/auth/logout').catch(() => {});
    dropSession();
    toast.success('Logged out successfully');
  }, [dropSession]);

  const refresh = useCallback(async () => {
    try {
      const envelope = await replacingToken(api.request<Partial<Session>>('POST', '/api/auth/refresh'));
      startSession(sessionFrom(envelope));
      return true;
    } catch (err) {
      console.error('Session refresh failed:', err);
      dropSession();
      return false;
    }
  }, [startSession, dropSession]);

  const updateUser = useCallback((next: PublicUser) => {
    saveUser(next);
    setUser(next);
  }, []);

  // Dark theme from the user's preferences (docs/product.md §3); signed-out screens use light.
  const theme = user?.preferences?.theme === 'dark' ? 'dark' : 'light';
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, token, login, register, logout, refresh, updateUser, adoptSession: startSession }),
    [status, user, token, login, register, logout, refresh, updateUser, startSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
