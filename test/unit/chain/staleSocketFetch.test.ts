import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchResendingReadsOnStaleSocket } from '../../../src/chain/viem/staleSocketFetch';

/**
 * A node that closes the connection of the first request it sees without
 * answering, as a node does to a keep-alive socket it has timed out: a read
 * is sent once more and answered; a transaction is not repeated.
 */
let server: Server;
let url: string;
let seen: string[] = [];
let dropFirst = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push(body);
      if (dropFirst > 0) {
        dropFirst--;
        req.socket.destroy();
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
});

const rpc = (method: string) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
});

test('behavior: a read whose socket was closed before any answer is sent again and answered', async () => {
  dropFirst = 1;
  const res = await fetchResendingReadsOnStaleSocket(url, rpc('eth_getBalance'));
  expect(await res.json()).toMatchObject({ result: '0x1' });
  expect(seen).toHaveLength(2);
});

test("error: a transaction is never sent twice; the failure is the caller's to judge", async () => {
  dropFirst = 1;
  await expect(fetchResendingReadsOnStaleSocket(url, rpc('eth_sendRawTransaction'))).rejects.toThrow('fetch failed');
  expect(seen).toHaveLength(1);
});

test('error: a read that fails twice fails (one resend, no loop)', async () => {
  dropFirst = 2;
  await expect(fetchResendingReadsOnStaleSocket(url, rpc('eth_call'))).rejects.toThrow('fetch failed');
  expect(seen).toHaveLength(2);
});
