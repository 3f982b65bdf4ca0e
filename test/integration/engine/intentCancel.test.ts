import { ADMIN_TOKEN, type Json, type TestServer } from '../../helpers/server';
import { startOwnSandboxServer, type OwnSandboxServer } from '../../helpers/ownSandbox';
import { intentHttp, usdc, type IntentHttp } from './intentsHttpHelpers';

/**
 * Cancellation end to end on devnets of its own (it stalls
 * chains, which is global to a devnet): POST /v1/intents/:id/cancel and
 * GraphQL cancelIntent. A stalled chain holds an intent at a known point
 * (nothing is mined there until the stall ends), so each cancel lands where
 * the test says: pending behind another intent, or while a bridge's mint
 * waits on the destination.
 */
let own: OwnSandboxServer | undefined;
let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  own = await startOwnSandboxServer({ SANDBOX_ACCOUNT_MODEL: 'plain' });
  srv = own.srv;
  key = (await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 })).key;
  api = intentHttp(srv, key);
}, 60_000);
afterAll(async () => {
  await own?.stop();
});

const cancel = (id: string) => srv.rest('POST', `/v1/intents/${id}/cancel`, { key });
const getIntent = async (id: string): Promise<Json> => (await srv.rest('GET', `/v1/intents/${id}`, { key })).body;

async function stall(chain: string, seconds: number): Promise<void> {
  const r = await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain, kind: 'stall', seconds } });
  expect(r.status).toBe(201);
}

/** Polls the intent until `accept` holds (bounded). */
async function until(id: string, accept: (i: Json) => boolean, what: string): Promise<Json> {
  const deadline = Date.now() + 20_000;
  let last: Json;
  while (Date.now() < deadline) {
    last = await getIntent(id);
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: never reached: ${JSON.stringify(last)}`);
}

/** The wallet's USDC balance and aave-v3 position on `chain`, smallest units. */
async function holdings(walletId: string, chain: string): Promise<{ balance: bigint; position: bigint }> {
  const b = await api.balances(walletId);
  const c = b.chains.find((x: Json) => x.chain === chain);
  const token = c.tokens.find((t: Json) => t.asset === 'USDC');
  const position = c.positions.find((p: Json) => p.asset === 'USDC' && p.protocol === 'aave-v3');
  return { balance: BigInt(token?.balance ?? '0'), position: BigInt(position?.balance ?? '0') };
}

test("behavior: a pending intent (queued behind the wallet's executing one) is cancelled at once, never runs, and cancelled is final (no Retry-After); the first completes", async () => {
  const w = await api.fundedWallet('cancel-pending', { 'base-sepolia': '3' });
  await stall('base-sepolia', 6);
  const first = await api.submit({ walletId: w.id, action: 'lend', amount: '1', chain: 'base-sepolia' });
  await until(first.id, (i) => i.status === 'executing', 'first executing');
  const second = await api.submit({ walletId: w.id, action: 'lend', amount: '2', chain: 'base-sepolia' });
  expect((await getIntent(second.id)).status).toBe('pending');

  const r = await cancel(second.id);
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ id: second.id, status: 'cancelled', executionPlan: null });
  expect(r.body.cancelRequestedAt).toBeDefined();
  expect(r.headers.get('retry-after')).toBeNull();

  expect((await api.waitFinal(first.id)).status).toBe('completed');
  const after = await getIntent(second.id);
  expect(after).toMatchObject({ status: 'cancelled', executionPlan: null });
  expect(after.results).toBeUndefined();
  const gql = await srv.gql(`{ intent(id: "${second.id}") { status cancelRequestedAt completedAt } }`, undefined, key);
  expect(gql.body.data.intent.status).toBe('CANCELLED');
  expect(await holdings(w.id, 'base-sepolia')).toEqual({ balance: usdc('2'), position: usdc('1') });
});

test('behavior: cancelled while the bridge is in flight → the bridge completes, the deposit never happens; cancelled with results saying what completed and the funds bridged on the destination', async () => {
  const w = await api.fundedWallet('cancel-midway', { 'arbitrum-sepolia': '5' });
  // nothing is mined on the destination for 10 s: the mint waits there, so the bridge cannot complete before the cancel
  await stall('base-sepolia', 10);
  const intent = await api.submit({ walletId: w.id, action: 'lend', amount: '5', chain: 'base-sepolia' });
  await until(intent.id, (i) => i.status === 'executing', 'executing');

  const r = await cancel(intent.id);
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('executing');
  expect(r.body.cancelRequestedAt).toBeDefined();
  expect(r.body.executionPlan.steps[0].status).not.toBe('completed'); // the bridge was still in flight
  expect(r.headers.get('retry-after')).toBe('5');

  const done = await api.waitFinal(intent.id);
  expect(done.status).toBe('cancelled');
  expect(done.error).toBeUndefined();
  expect(done.executionPlan.steps.map((s: Json) => [s.type, s.status])).toEqual([
    ['bridge', 'completed'],
    ['deposit', 'pending'],
  ]);
  expect(done.results.completedSteps).toBe(1);
  expect(done.results.transactions.map((t: Json) => `${t.type}:${t.kind}:${t.status}`)).toEqual([
    'bridge:approve:confirmed',
    'bridge:burn:confirmed',
    'bridge:mint:confirmed',
  ]);
  expect(await holdings(w.id, 'base-sepolia')).toEqual({ balance: usdc('5'), position: 0n });
  expect((await holdings(w.id, 'arbitrum-sepolia')).balance).toBe(0n);
  // asking again answers it as it stands
  const again = await cancel(intent.id);
  expect(again.status).toBe(200);
  expect(again.body).toEqual(done);
});

test('error: cancelling a completed intent is 409 INTENT_NOT_CANCELLABLE (REST and GraphQL), and it stays completed; an unknown one is 404', async () => {
  const w = await api.fundedWallet('cancel-done', { 'base-sepolia': '1' });
  const done = await api.run({ walletId: w.id, action: 'lend', amount: '1', chain: 'base-sepolia' });
  expect(done.status).toBe('completed');
  const r = await cancel(done.id);
  expect(r.status).toBe(409);
  expect(r.body).toMatchObject({ error: 'INTENT_NOT_CANCELLABLE', details: { intentId: done.id, status: 'completed' } });
  const gql = await srv.gql('mutation($id: ID!) { cancelIntent(id: $id) { status } }', { id: done.id }, key);
  expect(gql.body.data.cancelIntent).toBeNull();
  expect(gql.body.errors[0].extensions.code).toBe('INTENT_NOT_CANCELLABLE');
  expect(await getIntent(done.id)).toEqual(done);
  const unknown = await cancel('intent_0123456789abcdef0123456789abcdef');
  expect(unknown.status).toBe(404);
  expect(unknown.body.error).toBe('INTENT_NOT_FOUND');
});
