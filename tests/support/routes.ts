import type { FastifyInstance } from 'fastify';

export interface RouteInfo {
  method: string;
  /** e.g. /api/devices/:greenhouseId/:deviceId */
  url: string;
}

/**
 * Every route of a built app, from Fastify's route tree (printRoutes draws one segment per line,
 * indented by depth, with its methods), so tests cover routes that features add without listing them.
 */
export function listRoutes(app: FastifyInstance): RouteInfo[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const routes: RouteInfo[] = [];
  for (const line of lines) {
    const match = /^([│ ├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.replace(/\s+$/, ''));
    if (!match || !match[2]) continue;
    const depth = Math.floor(match[1]!.length / 4);
    stack.length = depth;
    stack[depth] = match[2];
    const url = stack.join('');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim()).filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url });
    }
  }
  return routes;
}
