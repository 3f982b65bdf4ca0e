/**
 * Backtests and the event loop: 90 days of recorded samples (4 USDC markets,
 * every minute, with the costs of each minute) in the memory store, then
 *  - baseline: one backtest replayed in one go (sliceMs Infinity: the replay
 *    before slicing), and
 *  - sliced: BENCH_CONCURRENT (3) backtests at once, sharing each turn of the
 *    event loop (REPLAY_TURN_MS split between them, as the service runs them),
 * each while a 1 ms timer measures the longest event-loop stall, an HTTP
 * server on the same loop is asked every 20 ms (the longest wait for an
 * answer: what GET /healthz sees), and the GC pauses are recorded (they
 * stall the loop too, whoever allocated).
 * Run: npx ts-node --transpile-only bench/backtestStall.ts
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { createMemoryRateHistory } from '../src/store/memory/memoryRateHistory';
import { simulateStanding } from '../src/app/standing/simulateStanding';
import { turnSlice, REPLAY_TURN_MS } from '../src/app/standing/replaySlices';
import type { SimulateParams } from '../src/domain/standingIntent';
import { seedRateHistory } from '../test/helpers/rateHistorySeed';
import { summary } from './support/benchStats';

const DAYS = Number(process.env.BENCH_DAYS ?? 90);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 3);

interface Probe {
  /** Stops measuring once every request sent is answered. */
  stop(): Promise<{ stallMs: number; stalls: { p50: number; p99: number; max: number }; answerMaxMs: number; answers: number; gcMaxMs: number }>;
}

/** The loop's stalls (gaps of a 1 ms interval), the waits of requests to a server on this loop, and GC pauses, until stopped. */
function probe(url: string): Probe {
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 1);
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMax = Math.max(gcMax, e.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  // Asked on a fixed cadence, not after the last answer: a request sent just before a stall waits it out.
  let answerMax = 0;
  let answers = 0;
  let sent = 0;
  const ask = () => {
    const t = performance.now();
    sent++;
    request(url, (res) => {
      res.resume();
      res.on('end', () => {
        answerMax = Math.max(answerMax, performance.now() - t);
        answers++;
      });
    }).end();
  };
  ask(); // sent just before the backtests start: a replay in one go holds its answer to the end
  const asking = setInterval(ask, 20);
  return {
    async stop() {
      clearInterval(timer);
      gaps.push(performance.now() - last); // a replay in one go ends before the interval fires again
      clearInterval(asking);
      while (answers < sent) await new Promise((r) => setTimeout(r, 5));
      gc.disconnect();
      const stalls = summary(gaps);
      return { stallMs: stalls.max, stalls, answerMaxMs: answerMax, answers, gcMaxMs: gcMax };
    },
  };
}

async function main(): Promise<void> {
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  const rateHistory = createMemoryRateHistory();
  let t = performance.now();
  const window = await seedRateHistory(rateHistory, end, DAYS);
  console.log(`seeded ${DAYS} days (${window.minutes} minutes x 4 markets) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const params: SimulateParams = { asset: 'USDC', amount: '100000', horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2, from: window.from, to: window.to };
  const clock = { now: () => new Date(end) };

  const server = createServer((_req, res) => res.end('{"status":"ok"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;

  const run = async (label: string, sliceMs: number, n: number) => {
    const p = probe(url);
    t = performance.now();
    const results = await Promise.all(Array.from({ length: n }, () => simulateStanding({ rateHistory, clock, sliceMs }, params)));
    const wallMs = performance.now() - t;
    const m = await p.stop();
    const r = results[0]!;
    const f = (x: number) => x.toFixed(1);
    console.log(
      `${label}: ${n} backtest(s), wall ${f(wallMs / 1000)} s, ${r.samples} sample minutes, ${r.moves.length} moves; ` +
        `longest stall ${f(m.stallMs)} ms (p50 ${f(m.stalls.p50)}, p99 ${f(m.stalls.p99)}); ` +
        `longest HTTP answer ${f(m.answerMaxMs)} ms over ${m.answers} requests; longest GC pause ${f(m.gcMaxMs)} ms`,
    );
    return { ...m, wallMs, result: r };
  };

  const baseline = await run('baseline (one go)', Infinity, 1);
  const sliced = await run(`sliced (${REPLAY_TURN_MS} ms a turn)`, turnSlice(CONCURRENT), CONCURRENT);
  const same = JSON.stringify(baseline.result) === JSON.stringify(sliced.result);
  console.log(
    `longest stall: sliced x${CONCURRENT} / baseline x1 = ${(sliced.stallMs / baseline.stallMs).toFixed(3)}; ` +
      `longest HTTP answer ratio ${(sliced.answerMaxMs / baseline.answerMaxMs).toFixed(3)}; ` +
      `wall time per backtest ratio ${(sliced.wallMs / CONCURRENT / baseline.wallMs).toFixed(2)}; answers equal: ${same}`,
  );
  server.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
