import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FailureEnvelope } from '../contract/common.ts';
import { requireRole } from '../auth/guard.ts';
import { ok } from '../http/reply.ts';
import { ChangeRoleBody, CreateUserBody, DeletedReply, UserListReply, UserReply, UsernameParams } from './schemas.ts';
import type { UsersService } from './users-service.ts';

const failures = { 400: FailureEnvelope, 401: FailureEnvelope, 403: FailureEnvelope, 404: FailureEnvelope, 409: FailureEnvelope };

/** /api/users: admins only (403 for everyone else, before the body is even looked at). */
export async function usersRoutes(fastify: FastifyInstance, options: { service: UsersService }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { service } = options;
  app.addHook('preValidation', requireRole('admin'));

  app.get('/', { schema: { response: { 200: UserListReply, ...failures } } }, async () => ok(service.list()));

  app.post('/', { schema: { body: CreateUserBody, response: { 201: UserReply, ...failures } } }, async (request, reply) =>
    reply.status(201).send(ok(await service.create(request.body), 'User created')),
  );

  app.put('/:username', { schema: { params: UsernameParams, body: ChangeRoleBody, response: { 200: UserReply, ...failures } } }, async (request) => {
    const { user, changed } = service.changeRole(request.params.username, request.body.role);
    return ok(user, changed ? 'Role updated' : `Role unchanged: ${user.username} is already ${user.role}`);
  });

  app.delete('/:username', { schema: { params: UsernameParams, response: { 200: DeletedReply, ...failures } } }, async (request) => {
    service.remove(request.params.username);
    return ok(null, 'User deleted');
  });
}
