import type { PublicUser, Role } from '../contract/user.ts';
import { conflict, invalid, notFound } from '../domain/errors.ts';
import type { EventBus } from '../events/bus.ts';
import { passwordProblem } from '../auth/password-rules.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { UserRow, UsersRepo } from '../auth/users-repo.ts';

export interface UsersServiceDeps {
  users: UsersRepo;
  bus: EventBus;
}

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  role: Role;
}

/**
 * What an admin does with accounts (docs/decisions.md, Users and roles): list them (pending requests first),
 * create one with any role, grant or change a role, delete one. The last admin can be neither demoted
 * nor deleted. A role change or a deletion revokes the account's tokens and closes its sockets at once.
 */
export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  list(): PublicUser[] {
    return this.deps.users.list().map((row) => this.deps.users.toPublic(row));
  }

  async create(account: NewAccount): Promise<PublicUser> {
    const { users } = this.deps;
    const weak = passwordProblem(account.password, account.username);
    if (weak) throw invalid(weak, 'password');
    if (users.findByUsername(account.username)) throw conflict(`Username '${account.username}' is already taken`);
    const passwordHash = await hashPassword(account.password);
    try {
      return users.toPublic(users.create({ username: account.username, email: account.email, passwordHash, role: account.role }));
    } catch (err) {
      // Two creations of one name at once: the unique index decides.
      if (String((err as Error).message).includes('UNIQUE')) throw conflict(`Username '${account.username}' is already taken`);
      throw err;
    }
  }

  /**
   * Gives an account a role. Its own role again (and no request pending) is no change: nothing is
   * written and its tokens stay valid; `changed` says which it was.
   */
  changeRole(username: string, role: Role): { user: PublicUser; changed: boolean } {
    const account = this.#get(username);
    const result = this.deps.users.changeRole(account.id, role);
    if (result === 'last-admin') {
      throw conflict(`${account.username} is the last admin: make another account admin before changing this one`);
    }
    if (result.changed) this.deps.bus.emit('accountRevoked', { accountId: account.id, reason: `Your role changed to ${role}, please sign in again` });
    return { user: this.deps.users.toPublic(result.account), changed: result.changed };
  }

  remove(username: string): void {
    const account = this.#get(username);
    if (this.deps.users.remove(account.id) === 'last-admin') {
      throw conflict(`${account.username} is the last admin and cannot be deleted`);
    }
    this.deps.bus.emit('accountRevoked', { accountId: account.id, reason: 'Account deleted' });
  }

  #get(username: string): UserRow {
    const account = this.deps.users.findByUsername(username);
    if (!account) throw notFound(`User '${username}' not found`);
    return account;
  }
}
