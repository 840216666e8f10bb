import { randomInt } from 'node:crypto';
import type { UserRow, UsersRepo } from '../auth/users-repo.ts';
import { passwordProblem } from '../auth/password-rules.ts';
import { hashPassword } from '../auth/passwords.ts';

/**
 * The way back in when no admin can sign in (docs/hardware.md, "Locked out"): run on the gateway
 * itself against the data dir's database, so only someone with a shell on the Pi can use it.
 */
export class RecoveryError extends Error {
  constructor(
    message: string,
    /** sysexits: 64 usage, 65 bad data (a refused password), 67 no such account, 73 cannot create. */
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Letters without look-alikes (no 0/O, 1/l/I), so a password read off a screen is typed right. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A one-time password: four groups of five (about 115 bits), dashes between them for reading aloud. */
export function oneTimePassword(): string {
  const group = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return [group(), group(), group(), group()].join('-');
}

async function passwordFor(username: string, given: string | null): Promise<{ password: string; generated: boolean; hash: string }> {
  const password = given ?? oneTimePassword();
  const problem = passwordProblem(password, username);
  if (problem) throw new RecoveryError(problem, 65);
  return { password, generated: given === null, hash: await hashPassword(password) };
}

export interface RecoveryOutcome {
  user: UserRow;
  /** The password now set: shown once when generated, never stored in the clear. */
  password: string;
  generated: boolean;
}

/**
 * Sets a new password on an existing account and bumps its token version, so every session it had
 * (a thief's included) is signed out, on a running gateway too: each request reads the account afresh.
 */
export async function resetPassword(users: UsersRepo, username: string, given: string | null): Promise<RecoveryOutcome> {
  const account = users.findByUsername(username);
  if (!account) throw new RecoveryError(`No account named '${username}'`, 67);
  const { password, generated, hash } = await passwordFor(account.username, given);
  const user = users.update(account.id, { passwordHash: hash, tokenVersion: account.tokenVersion + 1 });
  return { user, password, generated };
}

/**
 * Makes `username` an admin when the gateway has none left: an existing account is promoted (its
 * pending request cleared, its sessions ended), a new one created. Refused while any admin exists:
 * then `reset-password` of that admin is the way in, and this command cannot be used to add admins.
 */
export async function createAdmin(users: UsersRepo, username: string, given: string | null, email: string | null): Promise<RecoveryOutcome> {
  if (!/^[A-Za-z0-9_.-]{3,32}$/.test(username)) {
    throw new RecoveryError('NAME must be 3-32 letters, digits, _, . or -', 64);
  }
  const admins = users.countAdmins();
  if (admins > 0) throw new RecoveryError(`This gateway has ${admins} admin${admins === 1 ? '' : 's'}: use reset-password on one of them`, 73);
  const existing = users.findByUsername(username);
  const { password, generated, hash } = await passwordFor(existing?.username ?? username, given);
  if (existing) {
    const user = users.update(existing.id, { role: 'admin', requestedRole: null, passwordHash: hash, tokenVersion: existing.tokenVersion + 1 });
    return { user, password, generated };
  }
  const user = users.create({ username, email: email ?? `${username}@localhost`, passwordHash: hash, role: 'admin' });
  return { user, password, generated };
}
