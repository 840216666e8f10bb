// Sign in / sign up on one form (docs/product.md §2). Errors come back as toasts from AuthProvider.
// The demo hint (GET /api/auth/demo) shows only when the gateway runs with demo mode on.
import { useEffect, useState, type FormEvent } from 'react';
import { Eye, EyeOff, Leaf } from 'lucide-react';
import type { Role } from '../../../server/contract/user.ts';
import { api } from '../api/client.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { Spinner } from '../components/Spinner.tsx';

interface DemoHint {
  enabled: boolean;
  /** First run: no account yet; the first sign-up needs the setup code and becomes the administrator. */
  setupRequired?: boolean;
  username?: string;
  password?: string;
}

function useDemoHint(): DemoHint | null {
  const [hint, setHint] = useState<DemoHint | null>(null);
  useEffect(() => {
    let cancelled = false;
    api
      .get<DemoHint>('/api/auth/demo', { anonymous: true })
      .then((data) => !cancelled && setHint(data))
      .catch(() => {}); // no hint is the right fallback
    return () => {
      cancelled = true;
    };
  }, []);
  return hint;
}

export function LoginScreen() {
  const { login, register } = useAuth();
  const demo = useDemoHint();
  const [mode, setMode] = useState<'signIn' | 'signUp'>('signIn');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [setupCode, setSetupCode] = useState('');
  const firstRun = demo?.setupRequired === true;
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const signingUp = mode === 'signUp';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      // On success the route guard moves us to /dashboard.
      if (signingUp) await register({ username, email, password, role, ...(firstRun ? { setupCode: setupCode.trim() } : {}) });
      else await login(username, password);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="auth-page">
      <div className="card auth-card">
        <div className="auth-brand">
          <span className="auth-logo" aria-hidden>
            <Leaf size={28} />
          </span>
          <h1>Greenhouse Dashboard</h1>
          <p className="muted">{signingUp ? 'Create your account' : 'Sign in to your account'}</p>
        </div>

        {firstRun && (
          <p className="first-run-note" data-testid="first-run-note">
            This gateway has no administrator yet. Sign up with the setup code to become its administrator.
          </p>
        )}

        <form className="form" onSubmit={onSubmit}>
          <label className="field">
            <span>Username</span>
            <input name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
          </label>

          {signingUp && (
            <label className="field">
              <span>Email</span>
              <input name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </label>
          )}

          <label className="field">
            <span>Password</span>
            <span className="input-with-button">
              <input
                name="password"
                minLength={signingUp ? 10 : undefined}
                aria-describedby={signingUp ? 'password-hint' : undefined}
                type={showPassword ? 'text' : 'password'}
                autoComplete={signingUp ? 'new-password' : 'current-password'}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={showPassword ? 'Hide password' : 'Show password'}
                onClick={() => setShowPassword((v) => !v)}
              >
                {showPassword ? <EyeOff size={18} aria-hidden /> : <Eye size={18} aria-hidden />}
              </button>
            </span>
          </label>
          {/* Outside the label, so the field's name stays "Password". */}
          {signingUp && (
            <span className="field-hint" id="password-hint">
              At least 10 characters, not your username, not a common password.
            </span>
          )}

          {signingUp && firstRun && (
            <label className="field">
              <span>Setup code</span>
              <input
                name="setupCode"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                value={setupCode}
                onChange={(e) => setSetupCode(e.target.value)}
                aria-describedby="setup-code-hint"
              />
              <span className="field-hint" id="setup-code-hint">
                In the file setup-code in the gateway's data directory, and printed in its log (journalctl -u greenhouse-gateway).
              </span>
            </label>
          )}

          {signingUp && !firstRun && (
            <label className="field">
              <span>Role</span>
              <select name="role" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-describedby="role-hint">
                <option value="operator">Operator</option>
                <option value="viewer">Viewer</option>
              </select>
              {/* docs/decisions.md: nobody gets admin by signing up (the gateway refuses it); the first account is admin. */}
              <span className="field-hint" id="role-hint">
                Admin accounts are created by an administrator.
              </span>
            </label>
          )}

          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy && <Spinner size="sm" label={signingUp ? 'Creating account' : 'Signing in'} />}
            {signingUp ? 'Sign Up' : 'Sign In'}
          </button>
        </form>

        <p className="auth-toggle">
          <button type="button" className="link-button" onClick={() => setMode(signingUp ? 'signIn' : 'signUp')}>
            {signingUp ? 'Already have an account? Sign in' : "Don't have an account? Sign up"}
          </button>
        </p>

        {demo?.enabled && demo.username && demo.password && (
          <p className="demo-hint" data-testid="demo-hint">
            Demo credentials: {demo.username} / {demo.password}
          </p>
        )}
      </div>
    </main>
  );
}
