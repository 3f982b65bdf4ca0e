import { ADMIN_TOKEN, type Json, type TestServer } from '../../helpers/server';
import { startOwnSandboxServer, type OwnSandboxServer } from '../../helpers/ownSandbox';
import { expectCompleted, intentHttp, positionOn, usdc, type IntentHttp } from './intentsHttpHelpers';

/**
 * Money figures where they used to be wrong or missing, on devnets of this
 * suite's own (it stalls chains and changes the attestation service's fee):
 * a cancelled rebalance names where its funds sit idle (details.idle), and a
 * deposit after a mint that kept back less fee than planned reports what it
 * supplied. A stalled chain holds an intent at a known point (nothing is mined
 * there until the stall ends).
 */
let own: OwnSandboxServer | undefined;
let srv: TestServer;
let key: string;
let api: IntentHttp;

/** The fast fee the sandbox charges until a test lowers it (2 bps: 0.02 on 100). */
const FEE_BPS = 2;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  own = await startOwnSandboxServer({ SANDBOX_ACCOUNT_MODEL: 'plain' }, { feeBps: FEE_BPS });
  srv = own.srv;
  key = (await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 })).key;
  api = intentHttp(srv, key);
}, 90_000);
afterAll(async () => {
  await own?.stop();
});

afterEach(() => {
  own?.sandbox.iris.setFees({ fast: FEE_BPS });
});

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
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: never reached: ${JSON.stringify(last)}`);
}

const signed = (intent: Json, kind: string): boolean => (intent.results?.transactions ?? []).some((t: Json) => t.kind === kind);

/** A wallet with `amount` USDC lent on arbitrum-sepolia's Aave. */
async function lentOnArbitrum(prefix: string, amount: string): Promise<{ id: string; address: string }> {
  const w = await api.fundedWallet(prefix, { 'arbitrum-sepolia': amount });
  expectCompleted(await api.run({ walletId: w.id, action: 'lend', amount, chain: 'arbitrum-sepolia' }));
  return w;
}

const rebalanceBody = (walletId: string, amount: string): Json => ({
  walletId,
  action: 'rebalance',
  amount,
  toChain: 'ethereum-sepolia',
  toProtocol: 'aave-v3',
  sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount }],
});

test('behavior: a rebalance cancelled during its withdraw → cancelled with INTENT_CANCELLED naming the USDC idle on the source chain (details.idle), as the chain has it', async () => {
  const w = await lentOnArbitrum('cancel-withdrawn', '100');
  // nothing is mined on the source for a while: the withdraw waits there, signed
  await stall('arbitrum-sepolia', 4);
  const intent = await api.submit(rebalanceBody(w.id, '100'));
  await until(intent.id, (i) => signed(i, 'withdraw'), 'withdraw signed');
  expect((await srv.rest('POST', `/v1/intents/${intent.id}/cancel`, { key })).status).toBe(200);

  const done = await api.waitFinal(intent.id);
  expect(done.status).toBe('cancelled');
  expect(done.executionPlan.steps.map((s: Json) => s.status)).toEqual(['completed', 'pending', 'pending']);
  expect(done.error).toEqual({
    code: 'INTENT_CANCELLED',
    message: "Cancelled after 1 of 3 steps. The rebalance's funds are idle in the wallet: 100 USDC on arbitrum-sepolia.",
    details: { completedSteps: 1, idle: { 'arbitrum-sepolia': '100' } },
  });
  const report = await api.balances(w.id);
  const token = report.chains.find((c: Json) => c.chain === 'arbitrum-sepolia').tokens.find((t: Json) => t.asset === 'USDC');
  expect(BigInt(token.balance)).toBe(usdc('100'));
  // GraphQL shows the same
  const gql = await srv.gql(`{ intent(id: "${intent.id}") { status error { code details } } }`, undefined, key);
  expect(gql.body.data.intent).toEqual({ status: 'CANCELLED', error: { code: 'INTENT_CANCELLED', details: done.error.details } });
});

test('behavior: a rebalance cancelled during its bridge → the mint completes, the deposit never happens; cancelled naming what the mint delivered, idle on the destination', async () => {
  const w = await lentOnArbitrum('cancel-minted', '100');
  // nothing is mined on the destination for a while: the mint waits there
  await stall('ethereum-sepolia', 5);
  const intent = await api.submit(rebalanceBody(w.id, '100'));
  await until(intent.id, (i) => signed(i, 'burn'), 'burn signed');
  expect((await srv.rest('POST', `/v1/intents/${intent.id}/cancel`, { key })).status).toBe(200);

  const done = await api.waitFinal(intent.id);
  expect(done.status).toBe('cancelled');
  expect(done.executionPlan.steps.map((s: Json) => s.status)).toEqual(['completed', 'completed', 'pending']);
  expect(done.error).toEqual({
    code: 'INTENT_CANCELLED',
    message: "Cancelled after 2 of 3 steps. The rebalance's funds are idle in the wallet: 99.98 USDC on ethereum-sepolia.",
    details: { completedSteps: 2, idle: { 'ethereum-sepolia': '99.98' } },
  });
  const report = await api.balances(w.id);
  const token = report.chains.find((c: Json) => c.chain === 'ethereum-sepolia').tokens.find((t: Json) => t.asset === 'USDC');
  expect(BigInt(token.balance)).toBe(usdc('99.98'));
});

test('behavior: the fee falls after planning (planned 0.02, charged 0) → the deposit step, its amountUnits and the intent amount show the 100 supplied', async () => {
  const w = await api.fundedWallet('fee-fell', { 'arbitrum-sepolia': '100' });
  // nothing is mined on the source for a while: once planned, the burn cannot have been attested when the attestation service drops its fee
  await stall('arbitrum-sepolia', 8);
  const intent = await api.submit({ walletId: w.id, action: 'lend', amount: '100', chain: 'base-sepolia' });
  const planned = await until(intent.id, (i) => i.status === 'executing', 'planned');
  expect(signed(planned, 'burn') && planned.results.transactions.some((t: Json) => t.kind === 'burn' && t.status === 'confirmed')).toBe(false);
  expect(planned.executionPlan.steps[1]).toMatchObject({ type: 'deposit', amount: '99.98', amountUnits: '99980000' });
  own!.sandbox.iris.setFees({ fast: 0 });

  const done = await api.waitFinal(intent.id);
  expectCompleted(done);
  expect(done.executionPlan.steps[0]).toMatchObject({ type: 'bridge', amount: '100', fee: '0' });
  expect(done.executionPlan.steps[1]).toMatchObject({ type: 'deposit', amount: '100', amountUnits: '100000000' });
  expect(done).toMatchObject({ amount: 100, amountUnits: '100000000', results: { finalAmount: '100' } });
  const position = positionOn(await api.balances(w.id), 'base-sepolia', 'aave-v3');
  expect(position >= usdc('100') - 1n && position <= usdc('100') + 1n).toBe(true);
});
