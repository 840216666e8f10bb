import Type from 'typebox';
import { Envelope } from '../contract/common.ts';
import { PublicUser, Role } from '../contract/user.ts';
import { Email, Password, Username } from '../auth/schemas.ts';

export const UsernameParams = Type.Object({ username: Username });

/** An admin creates an account with any role. */
export const CreateUserBody = Type.Object({ username: Username, email: Email, password: Password, role: Role });

/** An admin grants a request or changes a role; the request is cleared either way. */
export const ChangeRoleBody = Type.Object({ role: Role });

export const UserListReply = Envelope(Type.Array(PublicUser));
export const UserReply = Envelope(PublicUser);
export const DeletedReply = Envelope(Type.Null());
