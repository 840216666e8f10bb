import { loadUnixDgram } from '../../server/appliance/notify.ts';

export interface DatagramReceiver {
  path: string;
  /** Every datagram received so far, as text. */
  messages: string[];
  waitFor(done: (messages: string[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * A unix datagram socket bound at `path`, standing in for systemd's end of $NOTIFY_SOCKET (unix-dgram,
 * the package the gateway sends with). With `read: false` it never reads: a manager that never answers.
 */
export async function bindDatagramReceiver(path: string, { read = true } = {}): Promise<DatagramReceiver> {
  const createSocket = await loadUnixDgram();
  const socket = createSocket() as ReturnType<typeof createSocket> & {
    bind(path: string): void;
    on(event: 'message', listener: (buf: Buffer) => void): unknown;
  };
  const messages: string[] = [];
  const waiters = new Set<() => void>();
  if (read) {
    socket.on('message', (buf: Buffer) => {
      messages.push(buf.toString());
      for (const waiter of waiters) waiter();
    });
  }
  socket.on('error', (err) => {
    throw err;
  });
  socket.bind(path);
  return {
    path,
    messages,
    waitFor: (done, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!done(messages)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`datagrams received: ${JSON.stringify(messages)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => socket.close(),
  };
}
