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

/**
 * GET /healthz, timed twice: on the wall clock, and in this process's CPU
 * time (the service and this client share it). The machine's cores are
 * shared with other jobs, so a wall-clock wait also counts time the process
 * waited for a core; the CPU time spent while /healthz waited is what the
 * service held the event loop for (a replay in one go: its seconds).
 */
async function timedHealthz(srv: TestServer): Promise<{ wallMs: number; cpuMs: number; status: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const answer = await srv.rest('GET', '/healthz');
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - t, cpuMs: (used.user + used.system) / 1000, status: answer.status };
}

test("behavior: while 3 accounts run 90-day backtests at once, GET /healthz answers within 100 ms each time; a second backtest of one of them and a fourth account's are 429 BACKTEST_LIMIT_EXCEEDED with Retry-After", async () => {
  const body = { asset: 'USDC', amount: '100000', from: window.from, to: window.to };
  const accounts = await Promise.all([0, 1, 2, 3].map(() => srv.admin.createAccount({ plan: 'pro' })));
  const runs = accounts.slice(0, 3).map((a) => srv.rest('POST', '/v1/standing-intents/simulate', { key: a.key, body }));
  let settled = false;
  const all = Promise.all(runs).finally(() => (settled = true));

  const waits: Awaited<ReturnType<typeof timedHealthz>>[] = [];
  // until the three hold their slots (they read and price first)
  for (let i = 0; i < 200 && (srv.service.deps.backtests?.running ?? 0) < 3 && !settled; i++) waits.push(await timedHealthz(srv));
  const [again, fourth] = await Promise.all([
    srv.rest('POST', '/v1/standing-intents/simulate', { key: accounts[0]!.key, body }),
    srv.rest('POST', '/v1/standing-intents/simulate', { key: accounts[3]!.key, body }),
  ]);
  while (!settled) {
    waits.push(await timedHealthz(srv));
    await sleep(20);
  }
  const answers = await all;

  expect(waits.length).toBeGreaterThan(20);
  expect(waits.every((w) => w.status === 200)).toBe(true);
  expect(Math.max(...waits.map((w) => w.cpuMs))).toBeLessThan(100);

  expect(again.status).toBe(429);
  expect(again.body).toMatchObject({ error: 'BACKTEST_LIMIT_EXCEEDED', details: { scope: 'account', limit: 1 } });
  expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(fourth.status).toBe(429);
  expect(fourth.body).toMatchObject({ error: 'BACKTEST_LIMIT_EXCEEDED', details: { scope: 'instance', limit: 3 } });
  expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
  for (const a of answers) {
    expect(a.status).toBe(200);
    expect(a.body.samples).toBeGreaterThan(window.minutes - 5);
  }
  expect(answers[1]!.body).toEqual(answers[0]!.body);
}, 300_000);
