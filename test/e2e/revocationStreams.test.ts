import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { parseUnits } from 'viem';
import { startIntentsServer, type IntentsServer } from '../unit/engine/intentsServer';
import { deferred, type Deferred } from '../unit/engine/deferred';
import { hashApiKey } from '../../src/app/accounts/apiKeyFormat';
import { revokeApiKey } from '../../src/app/accounts/revokeApiKey';

/**
 * A revoked key ends the streams opened with it (the API: revocation takes
 * effect immediately): graphql-ws closes with 4403, an SSE subscription gets
 * UNAUTHORIZED and ends, both within 1 s. Intents are held mid-execution
 * (receipts withheld) so the streams would otherwise stay open.
 */
let s: IntentsServer;
let hold: Deferred<void>;
const clients: Client[] = [];
const SUBSCRIPTION = 'subscription($id: ID!) { intentUpdated(id: $id) { status } }';
const WITHIN_MS = 1_000;

beforeAll(async () => {
  s = await startIntentsServer();
  hold = deferred();
  s.chain.beforeReceipt = () => hold.promise;
});
afterAll(async () => {
  hold?.resolve();
  await Promise.all(clients.map((c) => c.dispose()));
  await s?.stop();
});

/** An executing intent of a fresh account, with the account's key id. */
async function executingIntent(): Promise<{ key: string; keyId: string; intentId: string }> {
  const { key } = await s.account('pro');
  const wallet = await s.wallet(key);
  s.chain.fund('base-sepolia', wallet.address, 'USDC', parseUnits('10', 6));
  const created = await s.rest('POST', '/v1/intents', key, { walletId: wallet.id, action: 'lend', amount: 1, chain: 'base-sepolia' });
  expect(created.status).toBe(201);
  const keyId = (await s.deps.store.apiKeys.findByHash(hashApiKey(key)))!.id;
  return { key, keyId, intentId: created.body.id };
}

/** Resolves with what happened, or 'timeout' after `ms`. */
const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref())]);

test('error: a graphql-ws subscription opened with key B is closed with 4403 within 1 s of revoking B', async () => {
  const { key, keyId, intentId } = await executingIntent();
  let onClosed!: (code: number) => void;
  const closed = new Promise<number>((r) => (onClosed = r));
  const client = createClient({
    url: s.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    on: { closed: (e) => onClosed((e as { code: number }).code) },
  });
  clients.push(client);
  const first = deferred<string>();
  client.subscribe(
    { query: SUBSCRIPTION, variables: { id: intentId } },
    { next: (r) => first.resolve((r.data as any).intentUpdated.status), error: () => {}, complete: () => {} },
  );
  expect(['PENDING', 'PLANNING', 'EXECUTING']).toContain(await first.promise);

  await revokeApiKey(s.deps, keyId);
  expect(await within(closed, WITHIN_MS)).toBe(4403);
  // The same key cannot open a new socket.
  const again = await s.rest('GET', '/v1/yields', key);
  expect(again.status).toBe(401);
});

test('error: an SSE subscription opened with key B gets UNAUTHORIZED and ends within 1 s of revoking B', async () => {
  const { key, keyId, intentId } = await executingIntent();
  const res = await fetch(s.url + '/graphql', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ query: SUBSCRIPTION, variables: { id: intentId } }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (pattern: RegExp) => {
    while (!pattern.test(text)) {
      const { value, done } = await reader.read();
      if (done) return 'ended';
      text += decoder.decode(value, { stream: true });
    }
    return 'matched';
  };
  await readUntil(/"status":"(PENDING|PLANNING|EXECUTING)"/);

  await revokeApiKey(s.deps, keyId);
  const ended = (async () => {
    await readUntil(/UNAUTHORIZED/);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'ended';
      text += decoder.decode(value, { stream: true });
    }
  })();
  expect(await within(ended, WITHIN_MS)).toBe('ended');
  expect(text).toMatch(/"code":"UNAUTHORIZED"/);
});

test('behavior: a stream opened with another key of the same account is not affected', async () => {
  const { key, intentId } = await executingIntent();
  const accountId = (await s.deps.store.apiKeys.findByHash(hashApiKey(key)))!.accountId;
  const { issueApiKey } = await import('../../src/app/accounts/createAccount');
  const other = await issueApiKey(s.deps, { accountId });
  let closedCode: number | null = null;
  const client = createClient({
    url: s.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    on: { closed: (e) => (closedCode = (e as { code: number }).code) },
  });
  clients.push(client);
  const first = deferred<void>();
  client.subscribe({ query: SUBSCRIPTION, variables: { id: intentId } }, { next: () => first.resolve(), error: () => {}, complete: () => {} });
  await first.promise;
  await revokeApiKey(s.deps, other.id);
  await new Promise((r) => setTimeout(r, 200));
  expect(closedCode).toBeNull();
});
