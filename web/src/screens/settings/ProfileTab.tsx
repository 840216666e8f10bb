// Profile tab: username and role read-only, email editable, last login.
import { useState, type FormEvent } from 'react';
import type { PublicUser } from '../../../../server/contract/user.ts';
import { formatTimestamp } from '../../format.ts';
import { useProfileSave } from './hooks.ts';
import { SubmitRow } from './SubmitRow.tsx';

export function ProfileTab({ user }: { user: PublicUser }) {
  const [email, setEmail] = useState(user.email);
  const { busy, save: saveProfile } = useProfileSave();

  function save(event: FormEvent) {
    event.preventDefault();
    void saveProfile({ email });
  }

  return (
    <form className="form" onSubmit={save}>
      <label className="field">
        Username
        <input value={user.username} readOnly />
        <span className="field-hint">Username cannot be changed</span>
      </label>
      <label className="field">
        Email
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      </label>
      <label className="field">
        Role
        <input value={user.role} readOnly />
        {user.requestedRole && user.requestedRole !== user.role && (
          <span className="field-hint">You asked for the {user.requestedRole} role: an admin has not granted it yet.</span>
        )}
      </label>
      <label className="field">
        Last Login
        <input value={user.previousLogin ? formatTimestamp(user.previousLogin) : 'This is your first sign-in'} readOnly />
      </label>
      <SubmitRow label="Save Changes" disabled={busy} />
    </form>
  );
}
