import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { ClientEvents, ServerEvents } from '../contract/realtime.ts';
import { WS_CLOSE_FORBIDDEN, WS_CLOSE_TOO_MANY, WS_CLOSE_TRY_AGAIN_LATER, WS_CLOSE_UNAUTHORIZED } from '../contract/realtime.ts';
import type { UserRow } from '../auth/users-repo.ts';
import type { PublicUser } from '../contract/user.ts';
import { clientErrorOf } from '../http/errors.ts';
import { AuthenticateData, ClientMessage, closeReason, joinedGreenhouseId, messageProblem } from './client-messages.ts';
import { TurnDelivery } from './turn-delivery.ts';

export interface HubOptions {
  /** A client that has not authenticated by then is closed with 4401 (docs/decisions.md: 5 s). */
  authTimeoutMs: number;
  /** Ping period; a socket that did not answer the previous ping is terminated. */
  heartbeatMs: number;
  /** A client whose unsent backlog exceeds this is dropped rather than buffered without bound. */
  maxBufferedBytes: number;
  /** Sockets one account may hold; the next is closed with 4429 (one token must not exhaust the gateway). */
  maxSocketsPerAccount: number;
  /** Sockets the gateway holds in all, authenticated or not; the next is closed with 1013. */
  maxSocketsTotal: number;
  /**
   * Not-yet-authenticated sockets one address may hold; the next is closed with 1013. Anonymous
   * sockets from one address (or a page on another site) then cannot fill `maxSocketsTotal`.
   */
  maxAnonymousPerAddress: number;
  /**
   * Of `maxSocketsTotal`, the share anonymous sockets may take in all: the rest is kept for signed-in
   * accounts, so an admin still connects while anonymous sockets from many addresses wait.
   */
  maxAnonymousTotal: number;
}

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  authTimeoutMs: 5000,
  heartbeatMs: 30_000,
  maxBufferedBytes: 1 << 20,
  maxSocketsPerAccount: 20,
  maxSocketsTotal: 200,
  maxAnonymousPerAddress: 4,
  maxAnonymousTotal: 50,
};

export interface VerifiedSession {
  account: UserRow;
  /** Token expiry, epoch ms. */
  expiresAtMs: number;
  /** The token's id: signing out or refreshing revokes it, and the sockets it opened close. */
  tokenId: string;
}

/** Why a valid token may still not open the stream (a pending account). */
export interface RefusedSession {
  refusal: string;
}

export interface HubDeps {
  /** Verifies a bearer token; null when missing, bad, expired or revoked. */
  verifyToken(token: string): VerifiedSession | RefusedSession | null;
  /** The canonical greenhouse id for an id or alias, or null when this gateway does not serve it. */
  resolveGreenhouse(id: string): string | null;
  /** The account as it is now (role changes, revocation), or null when it is gone. */
  reloadAccount(account: UserRow): UserRow | null;
  toPublicUser(account: UserRow): PublicUser;
  logger: Logger;
  options?: Partial<HubOptions>;
}

type ClientHandler = (account: UserRow, data: unknown) => Promise<void> | void;

interface Client {
  socket: WebSocket;
  /** The peer's address: anonymous sockets are counted per address. */
  address: string;
  session: VerifiedSession | null;
  greenhouses: Set<string>;
  alive: boolean;
  timers: NodeJS.Timeout[];
}

/**
 * The realtime hub behind `/ws`: authenticates each socket (first message or upgrade header), keeps
 * per-greenhouse rooms, relays server events to them and hands client commands to their handlers.
 */
export class RealtimeHub {
  readonly #clients = new Set<Client>();
  readonly #handlers = new Map<string, ClientHandler>();
  readonly #options: HubOptions;
  readonly #delivery = new TurnDelivery<Client>((client, messages) => this.#write(client, messages));
  #heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly deps: HubDeps) {
    this.#options = { ...DEFAULT_HUB_OPTIONS, ...deps.options };
  }

  start(): void {
    this.#heartbeat = setInterval(() => this.#checkHeartbeats(), this.#options.heartbeatMs);
    this.#heartbeat.unref();
  }

  stop(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    for (const client of this.#clients) this.#close(client, 1001, 'Server shutting down');
    this.#delivery.stop();
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  /** Registers the handler of a client event (e.g. 'device-control'); it may throw a DomainError or HttpError. */
  onClientEvent<E extends Exclude<keyof ClientEvents, 'authenticate' | 'join-greenhouse'>>(event: E, handler: ClientHandler): void {
    this.#handlers.set(event, handler);
  }

  /**
   * Sends an event to every authenticated socket that joined the greenhouse: serialised once, queued
   * for each socket and sent in a later turn of the event loop (./turn-delivery.ts).
   */
  broadcast<E extends keyof ServerEvents>(greenhouseId: string, event: E, data: ServerEvents[E]): void {
    let message: Buffer | null = null;
    for (const client of this.#clients) {
      if (!client.session || !client.greenhouses.has(greenhouseId)) continue;
      message ??= Buffer.from(JSON.stringify({ event, data }));
      this.#delivery.enqueue(client, message);
    }
  }

  /**
   * Checks the sockets of one account against the account as it is now: after a role change, a
   * password change or a deletion its old tokens are revoked, and so are the sockets they opened.
   */
  revalidateAccount(accountId: number, reason = 'Session revoked', tokenId?: string): void {
    for (const client of this.#clients) {
      if (client.session?.account.id !== accountId) continue;
      const revoked = tokenId !== undefined ? client.session.tokenId === tokenId : !this.deps.reloadAccount(client.session.account);
      if (revoked) this.#close(client, WS_CLOSE_UNAUTHORIZED, reason);
    }
  }

  /**
   * Takes a freshly upgraded socket. `bearer` is the token of an `Authorization` header, if any;
   * `address` the peer's IP address.
   */
  accept(socket: WebSocket, bearer: string | null, address = 'unknown'): void {
    const client: Client = { socket, address, session: null, greenhouses: new Set(), alive: true, timers: [] };
    if (this.#clients.size >= this.#options.maxSocketsTotal) {
      this.deps.logger.warn({ sockets: this.#clients.size }, 'websocket refused: the gateway holds its maximum');
      this.#close(client, WS_CLOSE_TRY_AGAIN_LATER, 'Too many connections, try again later');
      return;
    }
    if (bearer === null) {
      const anonymous = [...this.#clients].filter((c) => c.session === null);
      if (anonymous.length >= this.#options.maxAnonymousTotal || anonymous.filter((c) => c.address === address).length >= this.#options.maxAnonymousPerAddress) {
        this.#close(client, WS_CLOSE_TRY_AGAIN_LATER, 'Too many unauthenticated connections, authenticate first');
        return;
      }
    }
    this.#clients.add(client);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('close', () => this.#forget(client));
    socket.on('error', () => this.#forget(client));
    socket.on('message', (raw, isBinary) => {
      void this.#onMessage(client, isBinary ? null : raw.toString());
    });

    if (bearer !== null) {
      this.#authenticate(client, bearer);
      return;
    }
    const authTimer = setTimeout(() => {
      if (!client.session) this.#close(client, WS_CLOSE_UNAUTHORIZED, 'Authentication timeout');
    }, this.#options.authTimeoutMs);
    client.timers.push(authTimer);
  }

  #authenticate(client: Client, token: unknown): boolean {
    const verified = typeof token === 'string' && token ? this.deps.verifyToken(token) : null;
    if (!verified) {
      this.#close(client, WS_CLOSE_UNAUTHORIZED, 'Invalid or expired token');
      return false;
    }
    if ('refusal' in verified) {
      this.#close(client, WS_CLOSE_FORBIDDEN, verified.refusal);
      return false;
    }
    const session = verified;
    const previous = client.session;
    const sameAccountSockets = [...this.#clients].filter((c) => c !== client && c.session?.account.id === session.account.id).length;
    if (previous?.account.id !== session.account.id && sameAccountSockets >= this.#options.maxSocketsPerAccount) {
      this.#close(client, WS_CLOSE_TOO_MANY, `At most ${this.#options.maxSocketsPerAccount} connections per account`);
      return false;
    }
    client.session = session;
    for (const timer of client.timers) clearTimeout(timer);
    client.timers = [];
    // A socket does not outlive its token (its expiry, or the end of its session, whichever is first).
    // Tokens are stamped in wall-clock time, so this is too.
    const untilExpiryMs = Math.max(0, session.expiresAtMs - Date.now());
    const expiryTimer = setTimeout(
      () => this.#close(client, WS_CLOSE_UNAUTHORIZED, 'Token expired'),
      Math.min(untilExpiryMs, 2 ** 31 - 1),
    );
    client.timers.push(expiryTimer);
    this.#send(client, 'authenticated', { user: this.deps.toPublicUser(session.account) });
    return true;
  }

  async #onMessage(client: Client, text: string | null): Promise<void> {
    let message: { event?: unknown; data?: unknown };
    try {
      message = text === null ? {} : (JSON.parse(text) as typeof message);
      if (typeof message !== 'object' || message === null || Array.isArray(message)) message = {};
    } catch {
      message = {};
    }
    const event = typeof message.event === 'string' ? message.event : null;
    // As strict as a REST body: a key other than event and data is refused, naming it.
    const shapeProblem = event === null ? null : messageProblem(ClientMessage, message, 'message', 'message');

    if (!client.session) {
      if (event === 'authenticate' && !shapeProblem) {
        const problem = messageProblem(AuthenticateData, message.data, 'authenticate');
        if (problem) this.#close(client, WS_CLOSE_UNAUTHORIZED, closeReason(problem.message));
        else this.#authenticate(client, (message.data as { token: string }).token);
      } else {
        this.#close(client, WS_CLOSE_UNAUTHORIZED, shapeProblem ? closeReason(shapeProblem.message) : 'Authenticate first');
      }
      return;
    }

    if (event === null) {
      this.#send(client, 'error', { message: 'Messages must be JSON objects { "event": string, "data": any }', status: 400 });
      return;
    }
    if (shapeProblem) {
      this.#send(client, 'error', { event, status: 400, message: shapeProblem.message });
      return;
    }
    if (event === 'authenticate') {
      // A socket may swap its token (after Extend Session); a malformed one ends it like a bad token.
      const problem = messageProblem(AuthenticateData, message.data, 'authenticate');
      if (problem) this.#close(client, WS_CLOSE_UNAUTHORIZED, closeReason(problem.message));
      else this.#authenticate(client, (message.data as { token: string }).token);
      return;
    }
    if (event === 'join-greenhouse') {
      const requested = joinedGreenhouseId(message.data);
      if (typeof requested !== 'string') {
        this.#send(client, 'error', { event, status: 400, message: requested.message });
        return;
      }
      const greenhouseId = this.deps.resolveGreenhouse(requested);
      if (!greenhouseId) {
        this.#send(client, 'error', { event, status: 404, message: `Greenhouse ${JSON.stringify(requested)} not found` });
        return;
      }
      client.greenhouses.add(greenhouseId);
      this.#send(client, 'greenhouse-joined', { greenhouseId });
      return;
    }
    const handler = this.#handlers.get(event);
    if (!handler) {
      this.#send(client, 'error', { event, status: 400, message: `Unknown event '${event}'` });
      return;
    }
    try {
      // Re-check the account on every command: a role change or revocation applies at once.
      const account = this.deps.reloadAccount(client.session.account);
      if (!account) {
        this.#close(client, WS_CLOSE_UNAUTHORIZED, 'Account revoked');
        return;
      }
      await handler(account, message.data);
    } catch (err) {
      const known = clientErrorOf(err);
      if (known) {
        this.#send(client, 'error', { event, status: known.statusCode, message: known.message, ...(known.lock ? { lock: known.lock as ServerEvents['error']['lock'] } : {}) });
      } else {
        this.deps.logger.error({ err, event }, 'websocket command failed');
        this.#send(client, 'error', { event, status: 500, message: 'Server error occurred' });
      }
    }
  }

  /** A reply to one socket: queued behind what is already waiting for it, so it arrives in order. */
  #send<E extends keyof ServerEvents>(client: Client, event: E, data: ServerEvents[E]): void {
    this.#delivery.enqueue(client, Buffer.from(JSON.stringify({ event, data })));
  }

  /** One socket's waiting messages, as one write to its connection. */
  #write(client: Client, messages: Buffer[]): void {
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.#options.maxBufferedBytes) {
      this.deps.logger.warn({ bufferedBytes: socket.bufferedAmount }, 'dropping slow websocket client');
      socket.terminate();
      this.#forget(client);
      return;
    }
    const connection = connectionOf(socket);
    connection?.cork();
    try {
      for (const message of messages) socket.send(message, { binary: false });
    } finally {
      connection?.uncork();
    }
  }

  #checkHeartbeats(): void {
    for (const client of this.#clients) {
      if (!client.alive) {
        client.socket.terminate();
        this.#forget(client);
        continue;
      }
      client.alive = false;
      try {
        client.socket.ping();
      } catch {
        this.#forget(client);
      }
    }
  }

  #close(client: Client, code: number, reason: string): void {
    this.#delivery.flush(client);
    try {
      client.socket.close(code, reason);
    } catch {
      client.socket.terminate();
    }
    this.#forget(client);
  }

  #forget(client: Client): void {
    this.#delivery.forget(client);
    for (const timer of client.timers) clearTimeout(timer);
    client.timers = [];
    this.#clients.delete(client);
  }
}

/**
 * The TCP or TLS connection under a `ws` socket (`ws` keeps it as `_socket` and has no public handle
 * on it), corked while a batch of frames is written so they leave in one system call instead of one
 * each. Null when it is not there (a stand-in socket): the frames are then written one by one.
 */
function connectionOf(socket: WebSocket): { cork(): void; uncork(): void } | null {
  const connection = (socket as unknown as { _socket?: { cork?: unknown; uncork?: unknown } })._socket;
  return connection && typeof connection.cork === 'function' && typeof connection.uncork === 'function'
    ? (connection as { cork(): void; uncork(): void })
    : null;
}
