import type { AuthFeature } from '../auth/feature.ts';
import { accountFromClaims, isPending, PENDING_REFUSAL } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { featureLogger } from '../context.ts';
import type { Feature } from '../features.ts';
import { bridgeBusToHub } from './bridge.ts';
import { RealtimeHub, type HubOptions } from './hub.ts';
import { realtimeRoutes } from './routes.ts';

export interface RealtimeFeature extends Feature {
  hub: RealtimeHub;
}

/** The websocket at /ws: the hub, and the bridge from the event bus to the specification's events. */
export function createRealtimeFeature(
  ctx: AppContext,
  uses: { auth: Pick<AuthFeature, 'users' | 'tokens'>; hubOptions?: Partial<HubOptions> },
): RealtimeFeature {
  const { users, tokens } = uses.auth;
  const hub = new RealtimeHub({
    verifyToken: (token) => {
      const checked = tokens.check(token);
      if (!checked.ok) return null;
      const account = accountFromClaims(users, checked.claims);
      if (!account) return null;
      if (isPending(account)) return { refusal: PENDING_REFUSAL };
      return { account, expiresAtMs: checked.claims.exp * 1000, tokenId: checked.claims.jti };
    },
    reloadAccount: (account) => {
      const fresh = users.findById(account.id);
      return fresh && fresh.tokenVersion === account.tokenVersion ? fresh : null;
    },
    toPublicUser: (account) => users.toPublic(account),
    resolveGreenhouse: ctx.resolveGreenhouse,
    logger: featureLogger(ctx, 'realtime'),
    options: {
      maxSocketsPerAccount: ctx.config.limits.websocketsPerAccount,
      maxSocketsTotal: ctx.config.limits.websocketsTotal,
      maxAnonymousPerAddress: ctx.config.limits.anonymousWebsocketsPerAddress,
      maxAnonymousTotal: Math.max(1, Math.floor(ctx.config.limits.websocketsTotal / 4)),
      ...uses.hubOptions,
    },
  });

  let unbridge: (() => void) | null = null;
  return {
    name: 'realtime',
    hub,
    async registerRootRoutes(app) {
      await app.register(realtimeRoutes, { hub });
    },
    start() {
      unbridge = bridgeBusToHub(ctx.bus, hub);
      hub.start();
    },
    stop() {
      hub.stop();
      unbridge?.();
      unbridge = null;
    },
  };
}
