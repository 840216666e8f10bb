import type { Server } from 'node:https';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TimerHandle } from '../../common/clock.ts';
import { featureLogger, type AppContext } from '../context.ts';
import type { HttpsInfo } from '../contract/https.ts';
import type { Feature } from '../features.ts';
import { certificateNames } from '../http/certificate-names.ts';
import { close, createHttpsListener, listen } from '../http/https-listener.ts';
import { issueTimeMs } from './issue-time.ts';
import { CA_DOWNLOAD_PATH, httpsPublicRoutes, httpsRoutes } from './routes.ts';
import type { TlsMaterial } from './tls-store.ts';

/** How often the names and the expiry of the gateway's own certificate are checked (a new DHCP address). */
const RECHECK_MS = 60 * 60_000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);


export interface HttpsFeature extends Feature {
  /** Opens the HTTPS listener for `app` once it listens on HTTP (gateway.ts); nothing when HTTPS is off. */
  listen(app: FastifyInstance): Promise<void>;
  /** https://127.0.0.1:<port> once listening, else null. */
  url(): string | null;
  material(): TlsMaterial | null;
}

/**
 * HTTPS beside HTTP (docs/https.md): config `https.port` turns it on; the certificate is the grower's
 * (`https.certFile`/`keyFile`) or issued by the gateway's local CA in `<dataDir>/tls`, which phones
 * download from GET /api/https/ca.crt. Browsers give service workers, installation and Web Push only
 * to a secure origin, and a LAN address over plain HTTP is not one.
 */
export function createHttpsFeature(ctx: AppContext): HttpsFeature {
  const { config, clock } = ctx;
  const log = featureLogger(ctx, 'https');
  const enabled = config.https.port !== null;
  let material: TlsMaterial | null = null;
  let server: Server | null = null;
  let port: number | null = null;
  let recheck: TimerHandle | null = null;
  let stopped = false;

  const names = () => certificateNames({ listenHost: config.host, allowedHosts: config.allowedHosts, hostNames: config.https.hostNames });

  async function loadMaterial(): Promise<TlsMaterial> {
    const { certFile, keyFile } = config.https;
    // Imported here: only with HTTPS on. Issuing a certificate loads the X.509 library, on a worker thread.
    const store = await import('./tls-store.ts');
    if (certFile !== undefined && keyFile !== undefined) return store.readProvidedCertificate({ certFile, keyFile });
    const local = await store.ensureLocalCertificate({ dir: join(config.dataDir, 'tls'), names: names(), nowMs: issueTimeMs(Date.now()) });
    if (local.issued) log.info({ names: local.server.names, fingerprintSha256: local.server.fingerprintSha256 }, 'issued a server certificate from the local CA');
    return local;
  }

  function scheduleRecheck(): void {
    if (stopped || material?.source !== 'local-ca') return;
    recheck = clock.setTimeout(() => {
      void (async () => {
        try {
          const next = await loadMaterial();
          if (next.certPem !== material?.certPem && server) server.setSecureContext({ key: next.keyPem, cert: next.certPem });
          material = next;
        } catch (err) {
          log.error({ err }, 'could not renew the server certificate; the current one stays');
        }
        scheduleRecheck();
      })();
    }, RECHECK_MS);
  }

  function info(): HttpsInfo {
    if (!enabled || !material || port === null) return { enabled: false, port: config.https.port, source: null, urls: [], certificateExpiresAt: null, ca: null };
    // What a phone can reach: the loopback names stay in the certificate but are no address for it.
    const reachable = material.server.names.filter((name) => !LOOPBACK.has(name));
    const hostFirst = reachable.sort((a, b) => Number(isIP(a) !== 0) - Number(isIP(b) !== 0));
    const urls = hostFirst.map((name) => `https://${isIP(name) === 6 ? `[${name}]` : name}${port === 443 ? '' : `:${port}`}`);
    return {
      enabled: true,
      port,
      source: material.source,
      urls,
      certificateExpiresAt: new Date(material.server.notAfterMs).toISOString(),
      ca: material.ca
        ? { fingerprintSha256: material.ca.facts.fingerprintSha256, expiresAt: new Date(material.ca.facts.notAfterMs).toISOString(), downloadPath: CA_DOWNLOAD_PATH }
        : null,
    };
  }

  const routeOptions = { info, caCertPem: () => material?.ca?.certPem ?? null };

  return {
    name: 'https',
    async registerPublicRoutes(api) {
      await api.register(httpsPublicRoutes, routeOptions);
    },
    async registerRoutes(authenticated) {
      await authenticated.register(httpsRoutes, routeOptions);
    },
    async start() {
      stopped = false;
      if (!enabled) return;
      material = await loadMaterial();
    },
    async listen(app) {
      if (!enabled || !material) return;
      server = createHttpsListener({ app, keyPem: material.keyPem, certPem: material.certPem, limits: config.limits });
      port = await listen(server, config.https.port!, config.host);
      log.info({ port, source: material.source }, 'serving HTTPS');
      scheduleRecheck();
    },
    url: () => (port === null ? null : `https://127.0.0.1:${port}`),
    material: () => material,
    async stop() {
      stopped = true;
      if (recheck) clock.clearTimeout(recheck);
      recheck = null;
      if (server) await close(server);
      server = null;
      port = null;
    },
  };
}
