/**
 * Operations near the GraphQL cost ceiling and the event loop: the service
 * started in-process on the memory store, a pro account with 100 standing
 * intents of 80 decisions each and 7 days of recorded rates, then for each
 * operation shape (priced by staticCost, just under MAX_OPERATION_COST) four
 * sent at once while GET /healthz is asked every 10 ms: its longest answer
 * and p99, and each operation's wall time. Baseline: /healthz asked alone,
 * as long, in the same run.
 * Run: npx ts-node --transpile-only bench/graphqlCostStall.ts
 */
import { performance } from 'node:perf_hooks';
import { parse } from 'graphql';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';
import { buildSchema } from '../src/graphql/schema';
import { staticCost } from '../src/graphql/staticCost';
import { MAX_OPERATION_COST } from '../src/graphql/operationCost';
import { seedStandingIntents } from '../test/helpers/standingSeed';
import { seedRateHistory } from '../test/helpers/rateHistorySeed';
import { summary } from './support/benchStats';

const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const aliases = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(' ');
const DECISION = 'id sampleAt decidedAt trigger outcome reason';
const NUMBERS = 'numbers { amount gainUsd netGainUsd thresholdUsd horizonDays costs { withdrawGasUsd bridgeFeeUsd bridgeGasUsd depositGasUsd totalUsd } }';

/** Shapes near the ceiling; `fit` finds the largest size that stays under it. */
const SHAPES: { name: string; query: (n: number) => string }[] = [
  {
    name: 'decision pages (100 intents x n decisions)',
    query: (n) => `{ standingIntents(first: 100) { edges { node { id decisions(first: ${n}) { edges { cursor node { ${DECISION} } } } } } } }`,
  },
  {
    name: 'decisions with numbers (100 intents x n)',
    query: (n) => `{ standingIntents(first: 100) { edges { node { id decisions(first: ${n}) { edges { node { ${DECISION} ${NUMBERS} } } } } } } }`,
  },
  {
    name: 'aliased decision pages (100 intents x 8 aliases x n decisions)',
    query: (n) =>
      `{ standingIntents(first: 100) { edges { node { id ${aliases(8, (i) => `d${i}: decisions(first: ${n}) { edges { node { id outcome } } }`)} } } } }`,
  },
  {
    name: 'yield history (n aliases, at most 20 root fields)',
    query: (n) =>
      n > 20 ? '{ x }' : `{ ${aliases(n, (i) => `h${i}: yieldHistory(asset: USDC) { series { chain protocol buckets { start min max mean samples } } }`)} }`,
  },
];

function fit(schema: ReturnType<typeof buildSchema>, query: (n: number) => string): { n: number; cost: number } {
  let best = { n: 0, cost: 0 };
  for (let n = 1; n <= 500; n++) {
    const text = query(n);
    if (text === '{ x }') break;
    const cost = staticCost(schema, parse(text));
    if (cost > MAX_OPERATION_COST) break;
    best = { n, cost };
  }
  return best;
}

async function main(): Promise<void> {
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DEV_PLAN: 'pro' }), createLogger('silent'));
  const url = svc.url;
  const key = svc.devApiKey!;
  await seedStandingIntents(svc.deps.store, svc.devAccountId!, 100, 80);
  await seedRateHistory(svc.deps.store.rateHistory, Math.floor(Date.now() / 60_000) * 60_000, 7);
  const schema = buildSchema();

  const gql = async (query: string): Promise<{ ms: number; ok: boolean; bytes: number }> => {
    const t = performance.now();
    const r = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ query }),
    });
    const text = await r.text();
    const ok = r.status === 200 && !text.includes('"errors"');
    if (!ok) console.error(`  ${r.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - t, ok, bytes: text.length };
  };

  /** /healthz every 10 ms (a fixed cadence: one sent just before a stall waits it out) until `work` settles. */
  const probe = async <T>(work: Promise<T> | null, forMs = 0): Promise<{ waits: number[]; result: T | null }> => {
    const waits: number[] = [];
    const inFlight: Promise<void>[] = [];
    const ask = () => {
      const t = performance.now();
      inFlight.push(
        fetch(`${url}/healthz`)
          .then((r) => r.arrayBuffer())
          .then(() => void waits.push(performance.now() - t)),
      );
    };
    ask();
    const timer = setInterval(ask, 10);
    const result = work ? await work : (await new Promise((r) => setTimeout(r, forMs)), null);
    clearInterval(timer);
    await Promise.all(inFlight);
    return { waits, result };
  };

  await (await fetch(`${url}/healthz`)).arrayBuffer();
  const f = (x: number) => x.toFixed(1);
  const baseline = await probe(null, 2_000);
  const base = summary(baseline.waits);
  console.log(`baseline: /healthz alone, ${baseline.waits.length} answers: longest ${f(base.max)} ms, p99 ${f(base.p99)} ms, p50 ${f(base.p50)} ms`);

  for (const shape of SHAPES) {
    const { n, cost } = fit(schema, shape.query);
    const query = shape.query(n);
    await gql(query); // warm: the document parsed and cached once, as a running service has it
    const waits: number[] = [];
    const walls: number[] = [];
    let bytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const p = await probe(Promise.all(Array.from({ length: CONCURRENT }, () => gql(query))));
      waits.push(...p.waits);
      for (const r of p.result!) {
        walls.push(r.ms);
        bytes = r.bytes;
      }
    }
    const h = summary(waits);
    const w = summary(walls);
    console.log(
      `${shape.name}, n=${n}, cost ${cost} units, answer ${(bytes / 1024).toFixed(0)} KiB; ${CONCURRENT} at once x ${ROUNDS} rounds: ` +
        `/healthz longest ${f(h.max)} ms (p99 ${f(h.p99)}), x${(h.max / base.max).toFixed(1)} the baseline's longest; ` +
        `operation wall p50 ${f(w.p50)} ms, longest ${f(w.max)} ms`,
    );
  }
  await svc.stop();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
