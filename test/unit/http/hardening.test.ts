import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHardening, recordHeaderOps, securityHeadersMiddleware } from '../../../src/http/hardening';

/**
 * createHardening runs helmet once and replays what it did on every answer:
 * the answer must carry exactly the headers helmet itself sets.
 */
async function headersOf(handler: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void): Promise<Record<string, string>> {
  const server = createServer((req, res) => {
    res.setHeader('X-Powered-By', 'something'); // helmet removes it
    handler(req, res, () => res.end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (k !== 'date' && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding' && k !== 'content-length') out[k] = v;
    });
    return out;
  } finally {
    await new Promise((r) => server.close(r));
  }
}

test('security: the replayed headers are exactly those helmet sets per request (CSP, nosniff, no-referrer, frame options …), X-Powered-By removed', async () => {
  const replayed = await headersOf(createHardening({ corsOrigins: [] }));
  const live = await headersOf(securityHeadersMiddleware());
  expect(replayed).toEqual(live);
  expect(replayed['x-powered-by']).toBeUndefined();
  expect(replayed).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'SAMEORIGIN' });
  expect(replayed['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(replayed['strict-transport-security']).toBeUndefined();
});

test('behavior: recordHeaderOps refuses a middleware that does not finish at once or sets a non-string header', () => {
  expect(() => recordHeaderOps(() => undefined)).toThrow(/synchronously/);
  expect(() =>
    recordHeaderOps((_req, res, next) => {
      res.setHeader('X-Number', 1);
      next();
    }),
  ).toThrow(/plain string/);
});
