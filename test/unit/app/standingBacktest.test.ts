import { createBacktestSlots } from '../../../src/app/standing/backtestSlots';
import { backtestCredits } from '../../../src/app/standing/backtestCost';
import { creditsUsed } from '../../../src/app/accounts/credits';
import { startIntentsServer, type IntentsServer } from '../engine/intentsServer';

/** The backtest's admission, price and plan through both front doors of a real HTTP server (memory store, fake chain). */

const HOUR = 3_600_000;
const DAYS = 20;
const MARKETS = [
  { chain: 'base-sepolia', protocol: 'aave-v3' },
  { chain: 'arbitrum-sepolia', protocol: 'aave-v3' },
  { chain: 'ethereum-sepolia', protocol: 'compound-v3' },
] as const;
const end = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
const window = { from: new Date(end - DAYS * 24 * HOUR).toISOString(), to: new Date(end).toISOString() };
const body = { asset: 'USDC', amount: '1000', ...window };
const SIMULATE = `mutation($from: DateTime, $to: DateTime, $start: LendingMarketInput) {
  simulateStandingIntent(asset: USDC, amount: "1000", from: $from, to: $to, start: $start) { samples }
}`;

let s: IntentsServer;
beforeAll(async () => {
  s = await startIntentsServer();
  const samples = [];
  for (let h = 0; h < DAYS * 24; h++) {
    const at = new Date(end - DAYS * 24 * HOUR + h * HOUR).toISOString();
    for (const [k, m] of MARKETS.entries()) samples.push({ ...m, asset: 'USDC' as const, at, apy: 3 + k });
  }
  await s.deps.store.rateHistory.record(samples);
});
afterAll(async () => {
  await s?.stop();
});
afterEach(() => {
  s.deps.backtests = createBacktestSlots();
});

test('behavior: a backtest costs backtestCredits(days, markets) on REST and GraphQL, and X-Credits-Remaining counts all of it', async () => {
  const credits = backtestCredits(DAYS, MARKETS.length);
  expect(credits).toBeGreaterThan(5);
  const { accountId, key } = await s.account('pro');
  const rest = await s.rest('POST', '/v1/standing-intents/simulate', key, body);
  expect(rest.status).toBe(200);
  expect(rest.body.samples).toBe(DAYS * 24);
  expect(await creditsUsed(s.deps, accountId)).toBe(credits);
  expect(rest.headers.get('x-credits-remaining')).toBe(String(10_000 - credits));

  const gql = await s.gql(SIMULATE, window, key);
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.simulateStandingIntent.samples).toBe(DAYS * 24);
  expect(await creditsUsed(s.deps, accountId)).toBe(2 * credits);
});

test('error: a free plan naming a main network as the start is 403 PLAN_RESTRICTED on REST and GraphQL, and nothing is charged', async () => {
  const { accountId, key } = await s.account('free');
  const rest = await s.rest('POST', '/v1/standing-intents/simulate', key, { ...body, start: { chain: 'ethereum', protocol: 'aave-v3' } });
  expect(rest.status).toBe(403);
  expect(rest.body).toMatchObject({ error: 'PLAN_RESTRICTED', details: { plan: 'free', chain: 'ethereum' } });
  const gql = await s.gql(SIMULATE, { ...window, start: { chain: 'ETHEREUM', protocol: 'AAVE_V3' } }, key);
  expect(gql.body.data.simulateStandingIntent).toBeNull();
  expect(gql.body.errors[0].extensions.code).toBe('PLAN_RESTRICTED');
  expect(await creditsUsed(s.deps, accountId)).toBe(0);
  // a test network is fine on the free plan
  expect((await s.rest('POST', '/v1/standing-intents/simulate', key, { ...body, start: MARKETS[0] })).status).toBe(200);
});

test("error: while one of the account's backtests runs, another is 429 BACKTEST_LIMIT_EXCEEDED (scope account) with Retry-After on REST and GraphQL; nothing is charged", async () => {
  const { accountId, key } = await s.account('pro');
  const running = s.deps.backtests.take(accountId);
  const rest = await s.rest('POST', '/v1/standing-intents/simulate', key, body);
  expect(rest.status).toBe(429);
  expect(rest.body).toMatchObject({ error: 'BACKTEST_LIMIT_EXCEEDED', details: { scope: 'account', limit: 1, retryAfterSeconds: 5 } });
  expect(rest.headers.get('retry-after')).toBe('5');
  const gql = await s.gql(SIMULATE, window, key);
  expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BACKTEST_LIMIT_EXCEEDED', details: { scope: 'account' } });
  expect(await creditsUsed(s.deps, accountId)).toBe(0);
  running();
  expect((await s.rest('POST', '/v1/standing-intents/simulate', key, body)).status).toBe(200);
});

test('error: once the instance runs as many backtests as it takes, another account is 429 BACKTEST_LIMIT_EXCEEDED (scope instance)', async () => {
  s.deps.backtests = createBacktestSlots({ perAccount: 1, perInstance: 2 });
  const [a, b, c] = [await s.account('pro'), await s.account('pro'), await s.account('pro')];
  const done = [s.deps.backtests.take(a.accountId), s.deps.backtests.take(b.accountId)];
  const refused = await s.rest('POST', '/v1/standing-intents/simulate', c.key, body);
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ error: 'BACKTEST_LIMIT_EXCEEDED', details: { scope: 'instance', limit: 2 } });
  done[0]!();
  expect((await s.rest('POST', '/v1/standing-intents/simulate', c.key, body)).status).toBe(200);
  done[1]!();
  expect(s.deps.backtests.running).toBe(0);
});
