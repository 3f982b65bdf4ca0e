import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../../helpers/server';
import { intentHttp, usdc, type IntentHttp } from './intentsHttpHelpers';

/**
 * What a lending position earned, on the shared sandbox devnets: a lend
 * intent's deposit is the position's principal; once the devnet's clock has
 * moved, the aToken balance has grown with Aave's liquidity index and
 * `earned` is exactly the balance less the principal; a partial withdraw
 * takes the interest first (docs/api-guide.md, "Earnings").
 */

let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, SANDBOX_ACCOUNT_MODEL: 'plain' });
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
  api = intentHttp(srv, key);
});
afterAll(() => srv?.stop());

/** The wallet's base-sepolia Aave USDC position in the balance report, in smallest units. */
function aavePosition(report: Json): { balance: bigint; principal: bigint | null; earned: bigint | null } {
  const p = report.chains.find((c: Json) => c.chain === 'base-sepolia').positions.find((x: Json) => x.protocol === 'aave-v3' && x.asset === 'USDC');
  return { balance: BigInt(p.balance), principal: p.principal === null ? null : usdc(p.principal), earned: p.earned === null ? null : usdc(p.earned) };
}

/** Balances until `until` holds: the ledger's hook records a withdraw once it has read the position after it, just after the intent completes. */
async function balancesWhen(walletId: string, until: (p: ReturnType<typeof aavePosition>) => boolean): Promise<ReturnType<typeof aavePosition>> {
  for (let i = 0; i < 50; i++) {
    const p = aavePosition(await api.balances(walletId));
    if (until(p)) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('balances never matched');
}

test('behavior: a lent position earns over 30 days of devnet time: earned = balance − principal exactly; a partial withdraw takes the interest first', async () => {
  const w = await api.fundedWallet('earn', { 'base-sepolia': '100' });
  const lend = await api.run({ walletId: w.id, action: 'lend', amount: '100', asset: 'USDC', chain: 'base-sepolia' });
  expect(lend.status).toBe('completed');
  expect(lend.executionPlan.steps.map((s: Json) => `${s.type}:${s.chain}:${s.protocol}`)).toEqual(['deposit:base-sepolia:aave-v3']);

  const lent = aavePosition(await api.balances(w.id));
  expect(lent.principal).toBe(usdc('100'));
  expect(lent.earned).toBe(lent.balance > usdc('100') ? lent.balance - usdc('100') : 0n);

  const time = await srv.rest('POST', '/admin/sandbox/time', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', seconds: 30 * 86_400 } });
  expect(time.status).toBe(200);
  const grown = aavePosition(await api.balances(w.id));
  expect(grown.principal).toBe(usdc('100'));
  // 30 days at the base-sepolia USDC rate (≈ 4 % APR) is ≈ 0.3 USDC on 100
  expect(grown.earned).toBeGreaterThan(usdc('0.2'));
  expect(grown.earned).toBe(grown.balance - grown.principal!);

  // GraphQL answers the same position
  const gql = await srv.gql(
    'query($id: ID!) { balances(walletId: $id) { chains { chain positions { protocol asset balance principal earned external } } } }',
    { id: w.id },
    key,
  );
  const viaGraphql = gql.body.data.balances.chains.find((c: Json) => c.chain === 'BASE_SEPOLIA').positions.find((p: Json) => p.asset === 'USDC');
  expect(viaGraphql.principal).toBe('100');
  expect(usdc(viaGraphql.earned)).toBe(BigInt(viaGraphql.balance) - usdc('100'));
  expect(usdc(viaGraphql.earned)).toBeGreaterThanOrEqual(grown.earned!);
  // ... and what others supplied to it, as REST does (devnet time stands still between the two reads)
  const viaRest = (await api.balances(w.id)).chains
    .find((c: Json) => c.chain === 'base-sepolia')
    .positions.find((p: Json) => p.protocol === 'aave-v3' && p.asset === 'USDC');
  expect(viaGraphql.external).toBe(viaRest.external ?? null);

  // Withdraw 40: more than the interest, so it takes all the interest and 40 − interest of the principal.
  const withdraw = await api.run({ walletId: w.id, action: 'withdraw', amount: '40', asset: 'USDC', chain: 'base-sepolia' });
  expect(withdraw.status).toBe('completed');
  const after = await balancesWhen(w.id, (p) => p.principal !== usdc('100'));
  // The interest kept accruing up to the withdraw, so the principal left is at least 100 + interest seen − 40 ...
  // (less one unit at most: Aave's ray arithmetic rounds a withdraw's scaled amount up, so the position can read one unit short)
  expect(after.principal! - (usdc('100') - usdc('40') + grown.earned!)).toBeGreaterThanOrEqual(-1n);
  // ... and is what the position held just after it: earned starts again from (almost) nothing.
  expect(after.principal!).toBeLessThanOrEqual(after.balance);
  expect(after.earned).toBe(after.balance - after.principal!);
  expect(after.earned).toBeLessThan(grown.earned! / 100n);
}, 120_000);
