// Users tab (admins only): pending requests first (grant the asked role, or keep the account a
// viewer), then every account with its role (change it, delete it), and a form to create one.
// A role change or a deletion signs that account out everywhere at once (the server revokes it).
import { useState, type FormEvent } from 'react';
import type { PublicUser, Role } from '../../../../server/contract/user.ts';
import { useUsers, useUserActions, type NewUser } from '../../api/users.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { useConfirm } from '../../components/confirm/ConfirmProvider.tsx';
import { formatTimestamp } from '../../format.ts';
import { useAction } from './hooks.ts';
import { SettingsLoadState } from './SettingsLoadState.tsx';
import { SubmitRow } from './SubmitRow.tsx';

const ROLES: Role[] = ['viewer', 'operator', 'admin'];
const EMPTY: NewUser = { username: '', email: '', password: '', role: 'viewer' };

export function UsersTab() {
  const { user: me } = useAuth();
  const query = useUsers(true);
  const actions = useUserActions();
  const { busy, run } = useAction();
  const confirm = useConfirm();
  const [form, setForm] = useState<NewUser>(EMPTY);

  if (!query.data) return <SettingsLoadState failed={query.isError} />;
  const pending = query.data.filter((u) => u.requestedRole !== null);

  const changeRole = (user: PublicUser, role: Role, success: string) =>
    void run(() => actions.changeRole(user.username, role), success, 'Failed to change the role');

  async function remove(user: PublicUser) {
    const message = `Delete the account ${user.username}? It is signed out at once.`;
    if (!(await confirm({ title: 'Delete account', message, confirmLabel: 'Delete', danger: true }))) return;
    void run(() => actions.remove(user.username), `${user.username} deleted`, 'Failed to delete the user');
  }

  function create(event: FormEvent) {
    event.preventDefault();
    void run(
      async () => {
        await actions.create(form);
        setForm(EMPTY);
      },
      `${form.username} created`,
      'Failed to create the user',
    );
  }

  return (
    <div className="stack">
      <section className="form" aria-labelledby="pending-heading">
        <h2 className="card-header" id="pending-heading">Pending requests</h2>
        {pending.length === 0 && <p className="settings-note">No one is waiting for a role.</p>}
        <ul className="users-list">
          {pending.map((user) => (
            <li key={user._id} className="users-row" data-testid={`pending-${user.username}`}>
              <span className="users-name">{user.username}</span>
              <span className="settings-note">
                {user.email} asks for <strong>{user.requestedRole}</strong> (now {user.role})
              </span>
              <span className="settings-actions">
                <button type="button" className="btn btn-primary" disabled={busy}
                  onClick={() => changeRole(user, user.requestedRole!, `${user.username} is now ${user.requestedRole}`)}>
                  Grant {user.requestedRole}
                </button>
                <button type="button" className="btn btn-secondary" disabled={busy}
                  onClick={() => changeRole(user, 'viewer', `${user.username} stays a viewer`)}>
                  Keep as viewer
                </button>
              </span>
            </li>
          ))}
        </ul>
      </section>

      <section className="form" aria-labelledby="accounts-heading">
        <h2 className="card-header" id="accounts-heading">Accounts</h2>
        <p className="settings-note">Changing a role or deleting an account signs it out everywhere at once.</p>
        <ul className="users-list">
          {query.data.map((user) => (
            <li key={user._id} className="users-row" data-testid={`user-${user.username}`}>
              <span className="users-name">
                {user.username}
                {user._id === me?._id && <span className="settings-note"> (you)</span>}
              </span>
              <span className="settings-note">Last login: {user.lastLogin ? formatTimestamp(user.lastLogin) : 'Never'}</span>
              <label className="field users-role">
                Role of {user.username}
                <select value={user.role} disabled={busy} onChange={(e) => changeRole(user, e.target.value as Role, `${user.username} is now ${e.target.value}`)}>
                  {ROLES.map((role) => (
                    <option key={role} value={role}>{role}</option>
                  ))}
                </select>
              </label>
              <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void remove(user)}>
                Delete {user.username}
              </button>
            </li>
          ))}
        </ul>
      </section>

      <form className="form" onSubmit={create} aria-labelledby="create-heading">
        <h2 className="card-header" id="create-heading">Create an account</h2>
        <div className="settings-pair">
          <label className="field">
            New username
            <input name="username" value={form.username} required minLength={3} maxLength={32} pattern="[A-Za-z0-9_.\-]+"
              onChange={(e) => setForm({ ...form, username: e.target.value })} />
          </label>
          <label className="field">
            New user's email
            <input name="email" type="email" value={form.email} required onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </label>
          <label className="field">
            Initial password
            <input name="password" type="password" autoComplete="new-password" value={form.password} required minLength={8} maxLength={128}
              onChange={(e) => setForm({ ...form, password: e.target.value })} />
          </label>
          <label className="field">
            New user's role
            <select name="role" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
              {ROLES.map((role) => (
                <option key={role} value={role}>{role}</option>
              ))}
            </select>
          </label>
        </div>
        <SubmitRow label="Create Account" disabled={busy} />
      </form>
    </div>
  );
}
