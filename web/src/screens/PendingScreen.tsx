// What a self-registered account sees until an administrator grants it a role (server/auth/README.md,
// "Pending accounts"): the gateway answers it nothing but its own profile, so instead of a dashboard of
// refusals it is told that its request waits, and it is let in, with a word, the moment it is granted.
import { useEffect } from 'react';
import { Clock3, Leaf } from 'lucide-react';
import type { PublicUser } from '../../../server/contract/user.ts';
import { api } from '../api/client.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { toast } from '../components/toast/index.ts';

/** How often the waiting screen asks whether the request was granted. */
const CHECK_EVERY_MS = 5000;

export function PendingScreen() {
  const { user, updateUser, logout } = useAuth();

  useEffect(() => {
    let cancelled = false;
    const check = () => {
      api
        .get<PublicUser>('/api/auth/me')
        .then((me) => {
          if (cancelled || me.pending) return;
          toast.success(`Access granted: you are now ${/^[aeiou]/.test(me.role) ? 'an' : 'a'} ${me.role}`);
          updateUser(me);
        })
        .catch(() => {}); // a failed check is retried; a 401 signs out through the client
    };
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [updateUser]);

  if (!user) return null;
  return (
    <main className="auth-page">
      <div className="card auth-card pending-card" data-testid="pending-screen">
        <div className="auth-brand">
          <span className="auth-logo" aria-hidden>
            <Leaf size={28} />
          </span>
          <h1>Greenhouse Dashboard</h1>
        </div>
        <p className="pending-status" role="status">
          <Clock3 size={20} aria-hidden /> Your request is waiting for an administrator
        </p>
        <p>
          Signed in as <strong>{user.username}</strong>, asking for the <strong>{user.requestedRole ?? user.role}</strong> role.
          An administrator of this gateway sees your request beside the bell and under Settings, Users.
        </p>
        <p className="muted">This page lets you in as soon as it is granted; you can leave it open.</p>
        <button type="button" className="btn btn-secondary btn-block" onClick={logout}>
          Logout
        </button>
      </div>
    </main>
  );
}
