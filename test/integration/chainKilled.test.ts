import type { Sandbox } from '../../src/chain/sandbox/sandbox';
import { ADMIN_TOKEN, type HttpAnswer, type Json, type TestServer } from '../helpers/server';
import { startOwnSandboxServer, type OwnSandboxServer } from '../helpers/ownSandbox';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { PROTOCOLS_WITHOUT_PERMITS } from '../helpers/withoutPermits';
import { expectCompleted, intentHttp, positionOn, txKinds, usdc, usdcOn, type IntentHttp } from './engine/intentsHttpHelpers';

/**
 * A devnet process killed mid-intent: this file runs its OWN
 * sandbox, so killing a node here breaks no other suite. While a chain is
 * down, /readyz answers 503 naming it, and balances and yields answer 503
 * naming it within the RPC timeout (never a hang, never a partial report). A
 * running intent resumes when the chain comes back (a mint after a confirmed
 * burn waits for as long as it takes), or, when the dead chain is needed
 * before anything is signed there, fails NETWORK_ERROR after its bounded
 * retries, having moved nothing on that chain. When the node comes back on
 * its port (a fresh Hardhat node, contracts deployed again at the same
 * addresses), the service picks it up without a restart of its own.
 */
const RPC_TIMEOUT_MS = 2_000;
/** An answer about a dead chain comes well within this (a refused connection fails at once; a hanging one at RPC_TIMEOUT_MS). */
const ANSWER_WITHIN_MS = 2 * RPC_TIMEOUT_MS + 1_000;

let own: OwnSandboxServer | undefined;
let sandbox: Sandbox;
let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // in-flight retries wait 1 s at most here, so a chain that is back is used within about a second
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  own = await startOwnSandboxServer(
    { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS), TX_RETRY_MAX_MS: '1000', SANDBOX_ACCOUNT_MODEL: 'plain' },
    { protocols: PROTOCOLS_WITHOUT_PERMITS },
  );
  ({ sandbox, srv } = own);
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
  api = intentHttp(srv, key);
}, 60_000);
afterAll(async () => {
  await own?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls GET /v1/intents/:id until `done` holds (bounded). */
async function intentWhen(id: string, done: (intent: Json) => boolean, withinMs: number): Promise<Json> {
  const deadline = Date.now() + withinMs;
  let last: Json;
  while (Date.now() < deadline) {
    const r = await srv.rest('GET', `/v1/intents/${id}`, { key });
    expect(r.status).toBe(200);
    last = r.body;
    if (done(last)) return last;
    await sleep(50);
  }
  throw new Error(`intent ${id} not as expected within ${withinMs} ms: ${JSON.stringify(last)}`);
}

/** Stops `chain` mining for `seconds` (the sandbox fault): the intent's first transactions wait, so the kill lands mid-intent. */
async function stall(chain: string, seconds: number): Promise<void> {
  const r = await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain, kind: 'stall', seconds } });
  expect(r.status).toBe(201);
}

/** A request timed: the answer and how long it took. */
async function timed(run: () => Promise<HttpAnswer>): Promise<HttpAnswer & { ms: number }> {
  const started = Date.now();
  const a = await run();
  return { ...a, ms: Date.now() - started };
}

/** While `chain` is down: /readyz, balances (REST and GraphQL) and yields name it, 503, in bounded time. */
async function expectOutageAnswers(chain: string, walletId: string): Promise<void> {
  const ready = await timed(() => srv.rest('GET', '/readyz'));
  expect({ status: ready.status, error: ready.body.error, fast: ready.ms < ANSWER_WITHIN_MS }).toEqual({
    status: 503,
    error: 'SERVICE_UNAVAILABLE',
    fast: true,
  });
  expect(ready.body.details.reason).toContain(chain);

  const balances = await timed(() => srv.rest('GET', `/v1/balances/${walletId}`, { key }));
  expect({ status: balances.status, chain: balances.body.details?.chain, fast: balances.ms < ANSWER_WITHIN_MS }).toEqual({ status: 503, chain, fast: true });
  expect(['NETWORK_ERROR', 'TIMEOUT']).toContain(balances.body.error);

  const yields = await timed(() => srv.rest('GET', '/v1/yields', { key }));
  expect({ status: yields.status, chain: yields.body.details?.chain, fast: yields.ms < ANSWER_WITHIN_MS }).toEqual({ status: 503, chain, fast: true });
  expect(['NETWORK_ERROR', 'TIMEOUT']).toContain(yields.body.error);

  const gql = await timed(() => srv.gql('query($w: ID!) { balances(walletId: $w) { totalValueUsd } }', { w: walletId }, key));
  expect(gql.ms).toBeLessThan(ANSWER_WITHIN_MS);
  expect(gql.body.errors[0].extensions).toMatchObject({ code: expect.stringMatching(/^(NETWORK_ERROR|TIMEOUT)$/) });
}

/** Once `chain` is back: /readyz, the wallet's balances and yields answer 200 again, the service untouched. */
async function expectRecovered(walletId: string): Promise<Json> {
  expect((await srv.rest('GET', '/readyz')).status).toBe(200);
  expect((await srv.rest('GET', '/v1/yields', { key })).status).toBe(200);
  return api.balances(walletId);
}

test('behavior: the destination devnet killed mid-lend (burn confirmed, mint pending) → 503s name it while it is down; the intent waits, then completes once the node is back (fresh, contracts redeployed), minted once; funds conserved', async () => {
  const w = await api.fundedWallet('killed-dest', { 'ethereum-sepolia': '5' });
  // the source stops mining for 3 s: the intent plans (reads only), then waits on its first transactions there
  await stall('ethereum-sepolia', 3);
  const intent = await api.submit({ walletId: w.id, action: 'lend', amount: 5 });
  const planned = await intentWhen(intent.id, (i) => i.status === 'executing', 5_000);
  expect(planned.executionPlan.steps.map((s: Json) => `${s.type}:${s.type === 'bridge' ? `${s.from}>${s.to}` : s.chain}`)).toEqual([
    'bridge:ethereum-sepolia>base-sepolia',
    'deposit:base-sepolia',
  ]);

  await sandbox.kill('base-sepolia');
  await expectOutageAnswers('base-sepolia', w.id);

  // the burn confirms once the source mines again; the mint on the dead chain keeps being retried, shown on the
  // step, past the 5 tries that bound a step with nothing in flight: a confirmed burn is never given up
  const waiting = await intentWhen(intent.id, (i) => i.status !== 'executing' || i.executionPlan.steps[0].attempts >= 6, 20_000);
  expect(waiting.status).toBe('executing');
  expect(waiting.executionPlan.steps[0].lastError.code).toMatch(/^(NETWORK_ERROR|TIMEOUT)$/);
  expect(waiting.executionPlan.steps[0].lastError.message).toContain('base-sepolia');
  expect(txKinds(waiting)).toEqual(['approve@ethereum-sepolia', 'burn@ethereum-sepolia']);

  await sandbox.restart('base-sepolia');
  const done = await intentWhen(intent.id, (i) => i.status === 'completed' || i.status === 'failed', 20_000);
  expectCompleted(done);
  expect(txKinds(done)).toEqual(['approve@ethereum-sepolia', 'burn@ethereum-sepolia', 'mint@base-sepolia', 'approve@base-sepolia', 'supply@base-sepolia']);
  expect(done.executionPlan.steps[0].lastError).toBeUndefined();

  // conserved: the 5 USDC left ethereum-sepolia once and sit in the base-sepolia pool (route fee 0 on this sandbox)
  const after = await expectRecovered(w.id);
  expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
  expect(usdcOn(after, 'base-sepolia')).toBe(0n);
  const position = positionOn(after, 'base-sepolia', 'aave-v3');
  expect(position).toBeGreaterThanOrEqual(usdc('5') - 1n);
  expect(position).toBeLessThan(usdc('5.01'));

  // the x402 facilitator's own client to the restarted node works too: a paid read settles there
  const payer = privateKeyToAccount(generatePrivateKey());
  await api.mint('base-sepolia', payer.address, '1');
  const pay = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(payer) }] });
  const paid = await pay(`${srv.url}/v1/yields`);
  expect(paid.status).toBe(200);
  expect(paid.headers.get('payment-response')).toBeTruthy();
}, 60_000);

test('error: a source devnet killed before its step signs anything → that step fails NETWORK_ERROR after its bounded retries (the earlier bridge stays completed, nothing sent on the dead chain); once the node is back, intents through it complete again', async () => {
  const w = await api.fundedWallet('killed-src', { 'ethereum-sepolia': '6', 'arbitrum-sepolia': '5' });
  await stall('ethereum-sepolia', 3);
  const intent = await api.submit({ walletId: w.id, action: 'lend', amount: 10 });
  const planned = await intentWhen(intent.id, (i) => i.status === 'executing', 5_000);
  expect(planned.executionPlan.steps.map((s: Json) => `${s.type}:${s.from ?? s.chain}`)).toEqual([
    'bridge:ethereum-sepolia',
    'bridge:arbitrum-sepolia',
    'deposit:base-sepolia',
  ]);

  await sandbox.kill('arbitrum-sepolia');
  const ready = await srv.rest('GET', '/readyz');
  expect(ready.status).toBe(503);
  expect(ready.body.details.reason).toContain('arbitrum-sepolia');

  // 5 tries, 7.5 s of back-off in all, after the 3 s stall
  const failed = await intentWhen(intent.id, (i) => i.status === 'completed' || i.status === 'failed', 25_000);
  expect(failed.status).toBe('failed');
  expect(failed.error.code).toMatch(/^(NETWORK_ERROR|TIMEOUT)$/);
  expect(failed.error.details).toMatchObject({ chain: 'arbitrum-sepolia', step: 2, attempts: 5, txHash: null });
  expect(failed.results).toMatchObject({ failedStep: 2, completedSteps: 1 });
  expect(failed.executionPlan.steps.map((s: Json) => s.status)).toEqual(['completed', 'failed', 'pending']);
  // nothing was sent on the dead chain; the first bridge's funds are on base-sepolia, in the wallet
  expect(txKinds(failed)).toEqual(['approve@ethereum-sepolia', 'burn@ethereum-sepolia', 'mint@base-sepolia']);
  const bridged = usdc(String(failed.executionPlan.steps[0].amount));

  await sandbox.restart('arbitrum-sepolia');
  const after = await expectRecovered(w.id);
  expect(usdcOn(after, 'ethereum-sepolia')).toBe(usdc('6') - bridged);
  expect(usdcOn(after, 'base-sepolia')).toBe(bridged);
  // the restarted node is fresh (its old balances are gone with it): fund there again and bridge through it, and lend what base-sepolia holds
  await api.mint('arbitrum-sepolia', w.address, '2');
  const bridge = await api.run({ walletId: w.id, action: 'bridge', amount: 2, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });
  expectCompleted(bridge);
  const lend = await api.run({ walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' });
  expectCompleted(lend);
}, 60_000);
