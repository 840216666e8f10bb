import Type from 'typebox';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-rules.ts';
import { Envelope } from '../contract/common.ts';
import { Preferences, PublicUser, Role, Session, Theme } from '../contract/user.ts';

export const Username = Type.String({ minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' });
/** Length only; the rest of the rules (not common, not the username) are passwordProblem's. */
export const Password = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH });
export const Email = Type.String({ format: 'email', maxLength: 254 });

export const RegisterBody = Type.Object({
  username: Username,
  email: Email,
  password: Password,
  role: Type.Optional(Role),
  /** The first run's one-time code (server/auth/README.md); accepted and ignored once an admin exists. */
  setupCode: Type.Optional(Type.String({ maxLength: 64 })),
});

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
});

export const ProfileBody = Type.Object({
  email: Type.Optional(Email),
  preferences: Type.Optional(
    Type.Object({
      alertNotifications: Type.Optional(Type.Boolean()),
      emailNotifications: Type.Optional(Type.Boolean()),
      theme: Type.Optional(Theme),
    }),
  ),
});

export const PasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 128 }),
  newPassword: Password,
});

/** Sessions answer with token and user inside `data` and, as the specification's client reads them, at top level. */
export const SessionReply = Type.Object({
  success: Type.Literal(true),
  message: Type.Optional(Type.String()),
  data: Session,
  token: Type.String(),
  user: PublicUser,
});

export const UserReply = Envelope(PublicUser);
export const LoggedOutReply = Envelope(Type.Null());

export const DemoReply = Envelope(
  Type.Object({
    enabled: Type.Boolean(),
    /** First run: no account yet, so signing up needs the setup code (the login screen asks for it). */
    setupRequired: Type.Boolean(),
    username: Type.Optional(Type.String()),
    password: Type.Optional(Type.String()),
  }),
);

export { Preferences };
