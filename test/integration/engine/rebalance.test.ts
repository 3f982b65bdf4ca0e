import { startTestServer, type Json, type TestServer } from '../../helpers/server';
import { SANDBOX_TEST_FEE_BPS } from '../../setup/sandbox';
import {
  decimal,
  expectCompleted,
  expectPositionNear,
  feeOf,
  intentHttp,
  positionOn,
  ROUNDING,
  txKinds,
  usdc,
  usdcApy,
  usdcOn,
  type IntentHttp,
} from './intentsHttpHelpers';
import { PROTOCOLS_WITHOUT_PERMITS } from '../../helpers/withoutPermits';

/**
 * Rebalance intents end to end on the shared sandbox devnets: a position lent
 * on arbitrum-sepolia's Aave moved into ethereum-sepolia's Aave USDC market
 * (sandbox-only) through one plan (withdraw → CCTP bridge → deposit), its
 * amounts exact; a bad body answered 400 naming every field; a spending
 * policy's per-intent cap refusing it.
 */

let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, SANDBOX_ACCOUNT_MODEL: 'plain' }, { protocols: PROTOCOLS_WITHOUT_PERMITS });
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
  api = intentHttp(srv, key);
});
afterAll(() => srv?.stop());

/** A wallet with `amount` USDC lent on arbitrum-sepolia's Aave. */
async function lentOnArbitrum(prefix: string, amount: string): Promise<{ id: string; address: string }> {
  const w = await api.fundedWallet(prefix, { 'arbitrum-sepolia': amount });
  expectCompleted(await api.run({ walletId: w.id, action: 'lend', amount, chain: 'arbitrum-sepolia' }));
  expectPositionNear(positionOn(await api.balances(w.id), 'arbitrum-sepolia', 'aave-v3'), usdc(amount));
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

test('behavior: a position on arbitrum-sepolia Aave rebalanced into ethereum-sepolia Aave: withdraw, burn, mint, deposit; the target position is what was withdrawn less the fee the mint kept back', async () => {
  const w = await lentOnArbitrum('rebalance', '6');
  const fee = feeOf(usdc('6'), SANDBOX_TEST_FEE_BPS);
  const arrives = decimal(usdc('6') - fee);

  const done = await api.run(rebalanceBody(w.id, '6'));

  expectCompleted(done);
  expect(done).toMatchObject({
    action: 'rebalance',
    toChain: 'ethereum-sepolia',
    toProtocol: 'aave-v3',
    sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '6' }],
    requestedAmount: 6,
    amount: Number(arrives),
  });
  expect(done.executionPlan.strategy).toBe('rebalance');
  expect(done.executionPlan.steps).toEqual([
    expect.objectContaining({ index: 0, type: 'withdraw', chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '6', status: 'completed' }),
    expect.objectContaining({
      index: 1,
      type: 'bridge',
      from: 'arbitrum-sepolia',
      to: 'ethereum-sepolia',
      amount: '6',
      fee: decimal(fee),
      status: 'completed',
    }),
    expect.objectContaining({
      index: 2,
      type: 'deposit',
      chain: 'ethereum-sepolia',
      protocol: 'aave-v3',
      amount: arrives,
      sandboxOnly: true,
      status: 'completed',
    }),
  ]);
  expect(txKinds(done)).toEqual([
    'withdraw@arbitrum-sepolia',
    'approve@arbitrum-sepolia',
    'burn@arbitrum-sepolia',
    'mint@ethereum-sepolia',
    'approve@ethereum-sepolia',
    'supply@ethereum-sepolia',
  ]);
  expect(done.results).toMatchObject({ finalAmount: arrives, bridgeFees: decimal(fee) });
  expect(done.results.apy).toBe(await usdcApy(srv, key, 'ethereum-sepolia', 'aave-v3'));

  const after = await api.balances(w.id);
  // the withdraw took exactly 6: what is left on arbitrum-sepolia is the interest accrued since the lend
  expect(positionOn(after, 'arbitrum-sepolia', 'aave-v3')).toBeLessThan(usdc('0.01'));
  expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
  expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
  const target = positionOn(after, 'ethereum-sepolia', 'aave-v3');
  expectPositionNear(target, usdc(arrives));
  expect(target).toBeGreaterThanOrEqual(usdc('6') - fee - ROUNDING);
});

test('error: a bad rebalance body → 400 INVALID_REQUEST naming every field problem, nothing stored', async () => {
  const w = await api.newWallet('rebalance-bad');
  const r = await api.post({
    walletId: w.id,
    action: 'rebalance',
    amount: '5',
    chain: 'base-sepolia',
    toProtocol: 'aave',
    sources: [
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '3.1234567' },
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '1' },
      { chain: 'base-sepolia', amount: 'x' },
    ],
  });
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('INVALID_REQUEST');
  expect(r.body.details.issues.map((i: Json) => i.path).sort()).toEqual(
    ['chain', 'sources.0.amount', 'sources.1', 'sources.2.amount', 'sources.2.protocol', 'toChain', 'toProtocol'].sort(),
  );
  expect((await srv.rest('GET', `/v1/intents?walletId=${w.id}`, { key })).body.intents).toEqual([]);
});

test('error: a spending policy whose per-intent cap is below the amount refuses the rebalance with POLICY_VIOLATION; the position stays where it was', async () => {
  const w = await lentOnArbitrum('rebalance-cap', '3');
  const policy = await srv.rest('POST', '/v1/policies', { key, body: { name: 'small moves', rules: { maxUsdPerIntent: '2' } } });
  expect(policy.status).toBe(201);
  expect((await srv.rest('PUT', `/v1/wallets/${w.id}/policy`, { key, body: { policyId: policy.body.id } })).status).toBe(200);

  const r = await api.post(rebalanceBody(w.id, '3'));

  expect(r.status).toBe(403);
  expect(r.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { policyId: policy.body.id, rule: 'maxUsdPerIntent', limit: '2', requested: '3.00' } });
  expect((await srv.rest('GET', `/v1/intents?walletId=${w.id}`, { key })).body.intents.map((i: Json) => i.action)).toEqual(['lend']);
  expectPositionNear(positionOn(await api.balances(w.id), 'arbitrum-sepolia', 'aave-v3'), usdc('3'));
});
