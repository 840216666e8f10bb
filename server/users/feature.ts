import type { AuthFeature } from '../auth/feature.ts';
import type { AppContext } from '../context.ts';
import type { Feature } from '../features.ts';
import { usersRoutes } from './routes.ts';
import { UsersService } from './users-service.ts';

export interface UsersFeature extends Feature {
  service: UsersService;
}

/** /api/users: the admin's view of accounts (list, create, grant or change a role, delete). */
export function createUsersFeature(ctx: AppContext, uses: { auth: Pick<AuthFeature, 'users'> }): UsersFeature {
  const service = new UsersService({ users: uses.auth.users, bus: ctx.bus });
  return {
    name: 'users',
    service,
    async registerRoutes(api) {
      await api.register(usersRoutes, { prefix: '/users', service });
    },
  };
}
