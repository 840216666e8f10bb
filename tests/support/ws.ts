import WebSocket from 'ws';

/** A real websocket client that records every message and can wait for one. */
export class TestSocket {
  readonly messages: Array<{ event: string; data: any }> = [];
  closeCode: number | null = null;
  readonly #waiters: Array<() => void> = [];
  readonly socket: WebSocket;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.socket = new WebSocket(url.replace(/^http/, 'ws') + '/ws', { headers });
    this.socket.on('message', (raw) => {
      try {
        this.messages.push(JSON.parse(raw.toString()));
      } catch {
        this.messages.push({ event: '(unparsable)', data: raw.toString() });
      }
      this.#wake();
    });
    this.socket.on('close', (code) => {
      this.closeCode = code;
      this.#wake();
    });
    this.socket.on('error', () => this.#wake());
  }

  opened(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }

  send(event: string, data?: unknown): void {
    this.socket.send(JSON.stringify({ event, data }));
  }

  /** Waits for the first message (after `fromIndex`) of the event that passes `where`. */
  async next(event: string, where: (data: any) => boolean = () => true, timeoutMs = 5000, fromIndex = 0): Promise<any> {
    return this.until(() => this.messages.slice(fromIndex).find((m) => m.event === event && where(m.data))?.data, timeoutMs, `event ${event}`);
  }

  async closed(timeoutMs = 8000): Promise<number> {
    return this.until(() => this.closeCode ?? undefined, timeoutMs, 'close');
  }

  /** Authenticates with a first message and joins the greenhouse. */
  async join(token: string, greenhouseId = 'greenhouse-001'): Promise<void> {
    await this.opened();
    this.send('authenticate', { token });
    await this.next('authenticated');
    this.send('join-greenhouse', greenhouseId);
    await this.next('greenhouse-joined');
  }

  close(): void {
    this.socket.close();
  }

  async until<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.map((m) => m.event))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}
