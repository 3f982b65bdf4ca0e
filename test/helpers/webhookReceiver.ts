import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver took. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status answered, or null while the request is held unanswered. */
  answered: number | null;
}

/** What happened at a receiver, in order: a request arrived, or a held one was closed by its sender. */
export type ReceiverEvent = { type: 'received'; index: number } | { type: 'closed'; index: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** Each request's answer by its index (0-based); null holds it unanswered until the sender gives up. */
  answer: (n: number) => number | null;
  /** Every arrival and every held request closed, in order, shared by the receivers of `log`. */
  log: { at: string; event: ReceiverEvent }[];
  /** Resolves once `n` requests have arrived. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real webhook receiver on 127.0.0.1 (loopback is allowed in a sandbox):
 * records every request and answers `answer(n)`, or holds it open (null) the
 * way an endpoint that never answers does. `name` tags its entries in `log`,
 * which receivers may share to order what happened across them.
 */
export async function startReceiver(name: string, answer: (n: number) => number | null = () => 204, log: Receiver['log'] = []): Promise<Receiver> {
  const waiters: { n: number; resolve: () => void }[] = [];
  const r: Receiver = {
    url: '',
    received: [],
    answer,
    log,
    arrived: (n) => (r.received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const index = r.received.length;
      const status = r.answer(index);
      r.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
      log.push({ at: name, event: { type: 'received', index } });
      for (const w of waiters.filter((w) => r.received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (status === null) res.on('close', () => log.push({ at: name, event: { type: 'closed', index } }));
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return r;
}
