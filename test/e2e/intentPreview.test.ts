import { startOwnSandboxServer, type OwnSandboxServer } from '../helpers/ownSandbox';
import { ADMIN_TOKEN, type Json, type TestServer } from '../helpers/server';
import { intentHttp, type IntentHttp } from '../integration/engine/intentsHttpHelpers';
import { PROTOCOLS_WITHOUT_PERMITS } from '../helpers/withoutPermits';

/**
 * POST /v1/intents/preview and GraphQL previewIntent and the
 * opt-in net-return ranking (item 2), on devnets of their own with a 5 bps
 * route fee (the suite sets rates): a previewed single-bridge lend, then the
 * same body executed, its gas within 25 % of the preview and its route fees
 * equal; a small amount with optimize: netReturn stays on its chain while a
 * large one bridges for the better APY.
 */

const FEE_BPS = 5;
let own: OwnSandboxServer;
let srv: TestServer;
let key: string;
let accountId: string;
let api: IntentHttp;

const MARKETS = [
  ['ethereum-sepolia', 'aave-v3'],
  ['ethereum-sepolia', 'compound-v3'],
  ['arbitrum-sepolia', 'aave-v3'],
  ['base-sepolia', 'aave-v3'],
] as const;

async function setRates(apys: Record<string, number>): Promise<void> {
  for (const [chain, protocol] of MARKETS) {
    const apy = apys[`${chain}/${protocol}`] ?? 1;
    const r = await srv.rest('POST', '/admin/sandbox/rates', { key: ADMIN_TOKEN, body: { chain, protocol, asset: 'USDC', apy } });
    if (r.status !== 200) throw new Error(`rates ${chain}/${protocol}: ${r.status} ${r.text}`);
  }
}

const preview = (body: unknown) => srv.rest('POST', '/v1/intents/preview', { key, body });
const used = async () => (await srv.admin.usage(accountId)).credits.used;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  own = await startOwnSandboxServer({ SANDBOX_ACCOUNT_MODEL: 'plain' }, { feeBps: FEE_BPS, protocols: PROTOCOLS_WITHOUT_PERMITS });
  srv = own.srv;
  const acct = await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 });
  key = acct.key;
  accountId = acct.accountId;
  api = intentHttp(srv, key);
  // base-sepolia pays a little more than arbitrum-sepolia; the rest far less
  await setRates({ 'base-sepolia/aave-v3': 5.1, 'arbitrum-sepolia/aave-v3': 5.0 });
}, 120_000);
afterAll(async () => {
  await own?.stop();
});

describe('POST /v1/intents/preview', () => {
  test('behavior: the previewed single-bridge lend is what runs: same route fees, gas within 25 %, nothing stored, 1 credit', async () => {
    const w = await api.fundedWallet('preview', { 'arbitrum-sepolia': '20' });
    const body = { walletId: w.id, action: 'lend', amount: '10' };
    const before = await used();
    const p = await preview(body);
    expect(p.status).toBe(200);
    expect(await used()).toBe(before + 1);
    expect((await srv.rest('GET', `/v1/intents?walletId=${w.id}`, { key })).body.intents).toEqual([]);
    const pv = p.body;
    expect(pv).toMatchObject({
      strategy: 'single-bridge',
      choice: 'bestApy',
      apy: 5.1,
      requestedAmount: '10',
      amount: '9.995',
      totals: { routeFees: '0.005', routeFeesUnits: '5000' },
    });
    expect(pv.steps.map((s: Json) => [s.type, s.chain, s.routeFee, s.arrives])).toEqual([
      ['bridge', 'arbitrum-sepolia', '0.005', '9.995'],
      ['deposit', 'base-sepolia', '0', '9.995'],
    ]);
    expect(pv.steps[0].gas.transactions.map((t: Json) => [t.kind, t.chain, t.estimate])).toEqual([
      ['approve', 'arbitrum-sepolia', 'estimated'],
      ['burn', 'arbitrum-sepolia', 'simulated'],
      ['mint', 'base-sepolia', 'typical'],
    ]);
    expect(pv.steps[1].gas.transactions.map((t: Json) => [t.kind, t.estimate])).toEqual([
      ['approve', 'estimated'],
      ['supply', 'simulated'],
    ]);
    expect(pv.steps[1].expectedYearlyEarnings).toBe('0.509745'); // 9.995 × 5.1 %
    // fast by default: the attestation service's fast tier, and what standard would cost and wait instead
    expect(pv.speed).toBe('fast');
    expect(pv.steps[0]).toMatchObject({ routeFeeBps: FEE_BPS, expectedWaitSeconds: 20 });
    expect(pv.speeds).toEqual([
      { speed: 'fast', routeFees: '0.005', routeFeesUnits: '5000', expectedWaitSeconds: 20 },
      { speed: 'standard', routeFees: '0', routeFeesUnits: '0', expectedWaitSeconds: 1140 },
    ]);
    expect(pv.totals.gasUsd).toBeGreaterThan(0);

    const done = await api.run(body);
    expect(done.status).toBe('completed');
    expect(done.executionPlan.strategy).toBe(pv.strategy);
    expect(done.executionPlan.steps.map((s: Json) => s.fee ?? '0')).toEqual(pv.steps.map((s: Json) => s.routeFee));
    expect(String(done.amount)).toBe(pv.amount);
    // per step and in total: the executed gas within 25 % of the preview (every previewed transaction was sent)
    const executed = done.results.transactions as Json[];
    const measured: Record<string, [number, number]> = {};
    pv.steps.forEach((step: Json) => {
      let stepGas = 0;
      for (const t of step.gas.transactions) {
        const actual = executed.find((x) => x.kind === t.kind && x.chain === t.chain && x.type === step.type);
        expect(actual).toBeDefined();
        measured[`${step.type}.${t.kind}`] = [Number(actual!.gasUsed), Number(t.gas)];
        stepGas += Number(actual!.gasUsed);
      }
      expect(Math.abs(stepGas - Number(step.gas.units)) / stepGas).toBeLessThanOrEqual(0.25);
    });
    const total = Number(done.results.totalGasUsed);
    console.log(
      `preview gas vs executed (actual, previewed): ${JSON.stringify(measured)}; total ${total} vs ${pv.totals.gasUnits}; usd ${done.results.totalGasCostUsd} vs ${pv.totals.gasUsd}`,
    );
    expect(Math.abs(total - Number(pv.totals.gasUnits)) / total).toBeLessThanOrEqual(0.25);
    expect(Math.abs(done.results.totalGasCostUsd - pv.totals.gasUsd) / done.results.totalGasCostUsd).toBeLessThanOrEqual(0.25);
  }, 90_000);

  test('behavior: speed standard → previewed and run at the standard tier (free here): the burn asks for finality 2000, all of it arrives and is supplied', async () => {
    const w = await api.fundedWallet('preview-standard', { 'arbitrum-sepolia': '10' });
    const body = { walletId: w.id, action: 'lend', amount: '10', chain: 'base-sepolia', speed: 'standard' };
    const p = await preview(body);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ strategy: 'single-bridge', speed: 'standard', amount: '10', totals: { routeFees: '0' } });
    expect(p.body.steps[0]).toMatchObject({ type: 'bridge', routeFee: '0', routeFeeBps: 0, expectedWaitSeconds: 1140 });

    const done = await api.run(body);
    expect(done.status).toBe('completed');
    expect(done.speed).toBe('standard');
    expect(done.executionPlan.steps[0]).toMatchObject({ type: 'bridge', fee: '0', maxFee: '0', minFinalityThreshold: 2000 });
    expect(done.results).toMatchObject({ finalAmount: '10', bridgeFees: '0' });
  }, 90_000);

  test('error: an intent that would fail planning answers its error: 422 INSUFFICIENT_FUNDS with the amounts, no credit', async () => {
    const w = await api.fundedWallet('preview-poor', { 'arbitrum-sepolia': '1' });
    const before = await used();
    const p = await preview({ walletId: w.id, action: 'lend', amount: '5' });
    expect(p.status).toBe(422);
    expect(p.body).toMatchObject({
      error: 'INSUFFICIENT_FUNDS',
      details: { required: '5', available: '1', perChain: { 'arbitrum-sepolia': '1' }, strategy: 'insufficient' },
    });
    expect(await used()).toBe(before);
    // the same body as an intent fails with the same error
    const failed = await api.run({ walletId: w.id, action: 'lend', amount: '5' });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: p.body.details });
  }, 60_000);

  test('error: the body is validated like POST /intents', async () => {
    const r = await preview({ action: 'withdraw', amount: '1', optimize: 'netReturn' });
    expect(r.status).toBe(400);
    expect(r.body.details.issues.map((i: Json) => i.path).sort()).toEqual(['chain', 'optimize', 'walletId']);
  });

  test('behavior: GraphQL previewIntent answers the same plan', async () => {
    const w = await api.fundedWallet('preview-gql', { 'base-sepolia': '3' });
    const r = await srv.gql(
      `query($input: CreateIntentInput!) { previewIntent(input: $input) { strategy choice amount apy steps { type chain protocol gas { units transactions { kind estimate } } } totals { gasUnits routeFees } } }`,
      { input: { walletId: w.id, action: 'LEND', amount: '2' } },
      key,
    );
    const body = r.body;
    expect(body.errors).toBeUndefined();
    expect(body.data.previewIntent).toMatchObject({ strategy: 'NO_BRIDGE', choice: 'BEST_APY', amount: '2', apy: 5.1, totals: { routeFees: '0' } });
    expect(body.data.previewIntent.steps[0].gas.transactions.map((t: Json) => t.estimate)).toEqual(['ESTIMATED', 'SIMULATED']);
  }, 60_000);
});

describe('optimize: netReturn', () => {
  test('behavior: a small amount stays on its chain, a large one bridges for the better APY; the default still bridges', async () => {
    const small = await api.fundedWallet('net-small', { 'arbitrum-sepolia': '5' });
    const large = await api.fundedWallet('net-large', { 'arbitrum-sepolia': '100000' });

    // the yields report ranks the same way (1 credit, best names the runner-up and the numbers)
    const ys = await srv.rest('GET', `/v1/yields?asset=USDC&amount=5&horizonDays=30&walletId=${small.id}&optimize=netReturn`, { key });
    expect(ys.status).toBe(200);
    expect(ys.body.best).toMatchObject({ chain: 'arbitrum-sepolia', protocol: 'aave-v3', apy: 5 });
    expect(ys.body.best.reasoning).toMatch(
      /^Best net return over 30 days: arbitrum-sepolia\/aave-v3 nets .*; runner-up \S+ nets .*the highest APY alone would be base-sepolia\/aave-v3 at 5\.10%/,
    );
    expect(ys.body.netReturn.ranking[0]).toMatchObject({ chain: 'arbitrum-sepolia', bridges: 0, routeFeesUsd: 0 });
    const runnerUp = ys.body.netReturn.ranking.find((r: Json) => r.chain === 'base-sepolia' && r.protocol === 'aave-v3');
    expect(runnerUp).toMatchObject({ bridges: 1, routeFeesUsd: 0.0025 });
    expect(runnerUp.netReturnUsd).toBeLessThan(ys.body.netReturn.ranking[0].netReturnUsd);
    const yl = await srv.rest('GET', `/v1/yields?asset=USDC&amount=100000&horizonDays=365&walletId=${large.id}&optimize=netReturn`, { key });
    expect(yl.body.best).toMatchObject({ chain: 'base-sepolia', protocol: 'aave-v3' });
    // without optimize: today's answer, the highest APY
    const plain = await srv.rest('GET', '/v1/yields?asset=USDC', { key });
    expect(plain.body.best).toMatchObject({ chain: 'base-sepolia', protocol: 'aave-v3', apy: 5.1 });
    expect(plain.body.netReturn).toBeUndefined();
    expect((await srv.rest('GET', `/v1/yields?walletId=${small.id}`, { key })).status).toBe(400);

    // the preview shows both choices when they differ
    const p = await preview({ walletId: small.id, action: 'lend', amount: '5', optimize: 'netReturn' });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ strategy: 'no-bridge', choice: 'netReturn', horizonDays: 30 });
    expect(p.body.alternatives.map((a: Json) => [a.choice, a.chain, a.bridges])).toEqual([
      ['bestApy', 'base-sepolia', 1],
      ['netReturn', 'arbitrum-sepolia', 0],
    ]);

    const smallLend = await api.run({ walletId: small.id, action: 'lend', amount: '5', optimize: 'netReturn' });
    expect(smallLend.status).toBe('completed');
    expect(smallLend.executionPlan.strategy).toBe('no-bridge');
    expect(smallLend.executionPlan.steps[0]).toMatchObject({ type: 'deposit', chain: 'arbitrum-sepolia', protocol: 'aave-v3' });
    expect(smallLend.executionPlan.reasoning).toMatch(/Chosen by net return .*arbitrum-sepolia\/aave-v3 .*runner-up/);

    const largeLend = await api.run({ walletId: large.id, action: 'lend', amount: '100000', optimize: 'netReturn', horizonDays: 365 });
    expect(largeLend.status).toBe('completed');
    expect(largeLend.executionPlan.strategy).toBe('single-bridge');
    expect(largeLend.executionPlan.steps[1]).toMatchObject({ type: 'deposit', chain: 'base-sepolia' });

    // the default (no optimize) still bridges a small amount for the higher APY
    const plainSmall = await api.fundedWallet('net-plain', { 'arbitrum-sepolia': '5' });
    const p2 = await preview({ walletId: plainSmall.id, action: 'lend', amount: '5' });
    expect(p2.body).toMatchObject({ strategy: 'single-bridge', choice: 'bestApy' });
    expect(p2.body.alternatives.map((a: Json) => a.choice)).toEqual(['bestApy', 'netReturn']);
  }, 120_000);
});
