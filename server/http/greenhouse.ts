import type { FastifyRequest } from 'fastify';
import { notFound } from './errors.ts';
import { GREENHOUSE_ID_ALIAS } from '../../common/catalogue.ts';

/** The appliance serves one greenhouse; `default` is an alias for it (docs/decisions.md, Contract). */
export function makeGreenhouseResolver(greenhouseId: string) {
  return (id: string): string | null => (id === greenhouseId || id === GREENHOUSE_ID_ALIAS ? greenhouseId : null);
}

/** A preHandler that rewrites `:greenhouseId` to the canonical id, or answers 404 for any other id. */
export function makeGreenhouseGuard(resolve: (id: string) => string | null) {
  return async function greenhouseGuard(request: FastifyRequest): Promise<void> {
    const params = request.params as Record<string, string> | undefined;
    if (!params || typeof params.greenhouseId !== 'string') return;
    const canonical = resolve(params.greenhouseId);
    if (!canonical) throw notFound(`Greenhouse '${params.greenhouseId}' not found`);
    params.greenhouseId = canonical;
  };
}
