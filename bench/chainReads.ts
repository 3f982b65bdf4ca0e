/**
 * Start-up time, and cold vs warm latency of GET /v1/balances and GET /v1/yields
 * against the real sandbox devnets. Cold = read caches cleared before each request.
 * Run: npx ts-node --transpile-only bench/chainReads.ts
 */
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';

const N = Number(process.env.BENCH_N ?? 200);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeIt(n: number, fn: () => Promise<void>, before?: () => void): Promise<{ p50: number; p99: number; mean: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    before?.();
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 50), p99: pct(samples, 99), mean: samples.reduce((s, x) => s + x, 0) / n };
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DEV_PLAN: 'enterprise' }), createLogger('silent'));
  const startupMs = Date.now() - t0;
  // started in development: the generated development key is there
  const key = svc.devApiKey!;
  const get = async (path: string) => {
    const r = await fetch(svc.url + path, { headers: { Authorization: `Bearer ${key}` } });
    if (r.status !== 200 && r.status !== 201 && r.status !== 202) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
  };
  const w = await (
    await fetch(`${svc.url}/v1/wallets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: 'bench' }),
    })
  ).json();
  await fetch(`${svc.url}/v1/demo/fund`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ walletId: w.id }),
  });
  const caches = svc.deps.caches;

  const balCold = await timeIt(
    N,
    () => get(`/v1/balances/${w.id}`),
    () => caches.holdings.clear(),
  );
  const balWarm = await timeIt(N, () => get(`/v1/balances/${w.id}`));
  const yCold = await timeIt(
    N,
    () => get('/v1/yields'),
    () => caches.rates.clear(),
  );
  const yWarm = await timeIt(N, () => get('/v1/yields'));
  const health = await timeIt(N, () => get('/healthz'));
  await svc.stop();

  const row = (name: string, s: { p50: number; p99: number; mean: number }) =>
    `| ${name} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.mean.toFixed(2)} | ${(s.mean / health.mean).toFixed(1)}× |`;
  console.log(`start-up (devnets + deploy + server): ${startupMs} ms`);
  console.log(`requests per case: ${N}`);
  console.log('| case | p50 ms | p99 ms | mean ms | mean vs /healthz |');
  console.log('|---|---|---|---|---|');
  console.log(row('GET /healthz (baseline)', health));
  console.log(row('GET /v1/balances cold', balCold));
  console.log(row('GET /v1/balances warm', balWarm));
  console.log(row('GET /v1/yields cold', yCold));
  console.log(row('GET /v1/yields warm', yWarm));
  console.log(`balances warm/cold mean ratio: ${(balWarm.mean / balCold.mean).toFixed(3)}; yields warm/cold: ${(yWarm.mean / yCold.mean).toFixed(3)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
