// Security tab: change password (the answer carries a fresh token; every other session is revoked)
// and Extend Session.
import { useState, type FormEvent } from 'react';
import type { Session } from '../../../../server/contract/user.ts';
import { api } from '../../api/client.ts';
import { replacingToken } from '../../api/session-store.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { toast } from '../../components/toast/index.ts';
import { useAction } from './hooks.ts';
import { SubmitRow } from './SubmitRow.tsx';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function SecurityTab() {
  const { adoptSession, refresh } = useAuth();
  const [form, setForm] = useState(EMPTY);
  const [mismatch, setMismatch] = useState(false);
  const { busy, run } = useAction();

  function changePassword(event: FormEvent) {
    event.preventDefault();
    const mismatched = form.newPassword !== form.confirmPassword;
    setMismatch(mismatched);
    if (mismatched) return;
    void run(
      async () => {
        const { currentPassword, newPassword } = form;
        // The answer's token replaces ours: the change revoked every token issued before it.
        adoptSession(await replacingToken(api.put<Session>('/api/auth/password', { currentPassword, newPassword })));
        setForm(EMPTY);
      },
      'Password updated successfully',
      'Password change failed',
    );
  }

  async function extendSession() {
    // A failed refresh signs the user out (docs/product.md §4); AuthProvider does that.
    if (await refresh()) toast.success('Session extended');
  }

  const field = (name: keyof typeof EMPTY, label: string) => (
    <label className="field">
      {label}
      <input
        type="password"
        name={name}
        autoComplete={name === 'currentPassword' ? 'current-password' : 'new-password'}
        value={form[name]}
        required
        minLength={name === 'currentPassword' ? 1 : 8}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
    </label>
  );

  return (
    <div className="stack">
      <form className="form" onSubmit={changePassword}>
        <h2 className="card-header">Change Password</h2>
        {field('currentPassword', 'Current Password')}
        {field('newPassword', 'New Password')}
        {field('confirmPassword', 'Confirm New Password')}
        {mismatch && (
          <p className="settings-error" role="alert">
            New passwords do not match
          </p>
        )}
        <p className="settings-note">Changing the password signs out every other session.</p>
        <SubmitRow label="Update Password" disabled={busy} />
      </form>
      <div className="form">
        <h2 className="card-header">Session</h2>
        <p className="settings-note">Your session expires in 24 hours. Extend it to get a fresh 24 hours.</p>
        <div className="settings-actions">
          <button type="button" className="btn btn-secondary" onClick={extendSession} disabled={busy}>
            Extend Session
          </button>
        </div>
      </div>
    </div>
  );
}
