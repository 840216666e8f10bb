import Type from 'typebox';
import { Envelope } from '../contract/common.ts';
import { Preferences, PublicUser, Role, Session, Theme } from '../contract/user.ts';

export const Username = Type.String({ minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' });
export const Password = Type.String({ minLength: 8, maxLength: 128 });
export const Email = Type.String({ format: 'email', maxLength: 254 });

export const RegisterBody = Type.Object({
  username: Username,
  email: Email,
  password: Password,
  role: Type.Optional(Role),
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

export const DemoReply = Envelope(
  Type.Object({
    enabled: Type.Boolean(),
    username: Type.Optional(Type.String()),
    password: Type.Optional(Type.String()),
  }),
);

export { Preferences };
