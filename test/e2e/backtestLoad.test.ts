import { performance } from 'node:perf_hooks';
import { startTestServer, type TestServer } from '../helpers/server';
import { seedRateHistory } from '../helpers/rateHistorySeed';

/**
 * Backtests on a started service (memory store): 90 days of samples of four
 * markets every minute, as the sampler records them, replayed by three
 * accounts at once while GET /healthz is asked again and again.
 */
let srv: TestServer;
let window: { from: string; to: string; minutes: number };
beforeAll(async () => {
  srv = await startTestServer();
  // up to the last whole minute but one: all 90 days are inside the history kept
  window = await seedRateHistory(srv.service.deps.store.rateHistory, Math.floor(Date.now() / 60_000) * 60_000 - 60_000, 90);
}, 120_000);
afterAll(() => srv?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("behavior: while 3 accounts run 90-day backtests at once, GET /healthz answers within 100 ms each time; a second backtest of one of them and a fourth account's are 429 BACKTEST_LIMIT_EXCEEDED with Retry-After", async () => {
  const body = { asset: 'USDC', amount: '100000', from: window.from, to: window.to };
  const accounts = await Promise.all([0, 1, 2, 3].map(() => srv.admin.createAccount({ plan: 'pro' })));
  const runs = accounts.slice(0, 3).map((a) => srv.rest('POST', '/v1/standing-intents/simulate', { key: a.key, body }));
  let settled = false;
  const all = Promise.all(runs).finally(() => (settled = true));

  const waits: number[] = [];
  const health = async () => {
    const t = performance.now();
    const answer = await srv.rest('GET', '/healthz');
    waits.push(performance.now() - t);
    expect(answer.status).toBe(200);
  };
  // until the three hold their slots (they read and price first)
  for (let i = 0; i < 200 && (srv.service.deps.backtests?.running ?? 0) < 3 && !settled; i++) await health();

  const again = await srv.rest('POST', '/v1/standing-intents/simulate', { key: accounts[0]!.key, body });
  expect(again.status).toBe(429);
  expect(again.body).toMatchObject({ error: 'BACKTEST_LIMIT_EXCEEDED', details: { scope: 'account', limit: 1 } });
  expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  const fourth = await srv.rest('POST', '/v1/standing-intents/simulate', { key: accounts[3]!.key, body });
  expect(fourth.status).toBe(429);
  expect(fourth.body).toMatchObject({ error: 'BACKTEST_LIMIT_EXCEEDED', details: { scope: 'instance', limit: 3 } });
  expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);

  while (!settled) {
    await health();
    await sleep(20);
  }
  const answers = await all;
  for (const a of answers) {
    expect(a.status).toBe(200);
    expect(a.body.samples).toBeGreaterThan(window.minutes - 5);
  }
  expect(answers[1]!.body).toEqual(answers[0]!.body);
  expect(waits.length).toBeGreaterThan(20);
  expect(Math.max(...waits)).toBeLessThan(100);
}, 300_000);
