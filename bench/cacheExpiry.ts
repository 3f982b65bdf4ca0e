/**
 * Cache expiry under sustained load: BENCH_CONCURRENCY closed-loop clients
 * (a child process, so its CPU is not the server's) read GET /v1/yields (and
 * GET /graphql { yields }, and GET /v1/balances/:id) for BENCH_SECONDS while the read caches live only
 * BENCH_TTL_MS, so the entry expires several times under load. Chain reads
 * are counted at the chain port with their start and end; every answer's
 * latency is taken by the client with its start time. Prints chain reads per
 * expiry (reads that start within half a TTL of each other are one expiry)
 * and the latency of answers that overlap a refresh ("expiry windows": a
 * chain read in flight, ±20 ms) against those that do not, and how many
 * cache reads waited for the chain (lru-cache status 'miss', or 'inflight'
 * with no stale value returned; with stale-while-revalidate none should).
 * Run: NODE_ENV=production npx ts-node --transpile-only bench/cacheExpiry.ts
 * Knobs: BENCH_SECONDS (12), BENCH_CONCURRENCY (50), BENCH_TTL_MS (2000), BENCH_ONLY (yields,graphql,balances), BENCH_VERBOSE.
 */
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pino from 'pino';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const TTL_MS = Number(process.env.BENCH_TTL_MS ?? 2000);
const ONLY = (process.env.BENCH_ONLY ?? 'yields,graphql,balances').split(',');
const now = () => performance.timeOrigin + performance.now();

interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  concurrency: number;
  seconds: number;
}

/** The child: closed-loop GETs; prints [start ms (epoch), latency ms, status] per answer. */
async function loadChild(spec: LoadSpec): Promise<void> {
  const u = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const deadline = Date.now() + spec.seconds * 1000;
  const out: [number, number, number][] = [];
  const one = () =>
    new Promise<void>((resolve) => {
      const t = now();
      const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, agent, headers: spec.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          out.push([t, now() - t, res.statusCode ?? 0]);
          resolve();
        });
      });
      req.on('error', () => {
        out.push([t, now() - t, 0]);
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  process.stdout.write(JSON.stringify(out));
  agent.destroy();
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main(): Promise<void> {
  // Loaded here, not at the top: the child process needs none of the service.
  const { loadConfig } = await import('../src/config');
  const { createLogger } = await import('../src/logger');
  const { startService } = await import('../src/service');
  const { createReadCaches } = await import('../src/app/caches');
  const admin = 'bench-admin-token-0123456789';
  const env = process.env.NODE_ENV ?? 'production';
  const svc = await startService(
    loadConfig({ PORT: '0', ADMIN_TOKEN: admin, NODE_ENV: env, DASHBOARD: 'off' }),
    createLogger(process.env.LOG_LEVEL ?? 'info', pino.destination({ dest: '/dev/null', sync: false })),
  );
  const acct = await (
    await fetch(`${svc.url}/admin/accounts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ plan: 'enterprise', requestsPerMinute: 1_000_000 }),
    })
  ).json();
  const headers = { authorization: `Bearer ${acct.apiKey.key}` };
  const wallet = (await (
    await fetch(`${svc.url}/v1/wallets`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"userId":"expiry"}' })
  ).json()) as { id: string };
  await fetch(`${svc.url}/v1/demo/fund`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ walletId: wallet.id }),
  });
  await new Promise((r) => setTimeout(r, 1500));

  // Short-lived caches (same single-flight and stale-while-revalidate settings, shorter ttl).
  const short = createReadCaches({ ratesTtlMs: TTL_MS, holdingsTtlMs: TTL_MS });
  svc.deps.caches.rates = short.rates;
  svc.deps.caches.holdings = short.holdings;
  // How each read was answered (lru-cache's status): it waited for a chain read on a 'miss', or on 'inflight' without a stale value to return.
  const waited = { rates: 0, holdings: 0 };
  const answered = { rates: 0, holdings: 0 };
  for (const name of ['rates', 'holdings'] as const) {
    const cache = short[name] as unknown as { fetch(k: unknown, o?: { status?: { fetch?: string; returnedStale?: boolean } }): Promise<unknown> };
    const fetchOne = cache.fetch.bind(cache);
    cache.fetch = (k, o) => {
      const p = fetchOne(k, o);
      answered[name]++;
      const st = o?.status;
      if (st?.fetch === 'miss' || (st?.fetch === 'inflight' && !st.returnedStale)) waited[name]++;
      return p;
    };
  }

  // Chain reads counted at the port, with when they ran.
  const chains = svc.deps.chains;
  const reads: Record<string, { start: number; end: number }[]> = { rates: [], holdings: [], priceUsd: [] };
  const count =
    <A extends unknown[], R>(name: string, fn: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> => {
      const r = { start: now(), end: NaN };
      reads[name]!.push(r);
      return fn(...a).finally(() => (r.end = now()));
    };
  chains.rates = count('rates', chains.rates.bind(chains));
  chains.holdings = count('holdings', chains.holdings.bind(chains));
  // priceUsd answers stablecoins at once and caches ETH for 10 s in the port: only its calls that wait are chain reads.
  const priceUsd = chains.priceUsd.bind(chains);
  chains.priceUsd = (...a: Parameters<typeof priceUsd>) => {
    const t = now();
    return priceUsd(...a).finally(() => {
      if (now() - t > 1) reads.priceUsd!.push({ start: t, end: now() });
    });
  };

  const cases = [
    { id: 'yields', name: 'GET /v1/yields', path: '/v1/yields?asset=USDC', counter: 'rates' },
    {
      id: 'graphql',
      name: 'GET /graphql { yields }',
      path: `/graphql?query=${encodeURIComponent('{ yields(asset: USDC) { best { apy } } }')}`,
      counter: 'rates',
    },
    { id: 'balances', name: 'GET /v1/balances/:id', path: `/v1/balances/${wallet.id}`, counter: 'holdings' },
  ].filter((c) => ONLY.includes(c.id));

  console.log(`${CONCURRENCY} closed-loop clients for ${SECONDS} s per case (load from a child process), cache ttl ${TTL_MS} ms, NODE_ENV=${env}`);
  console.log(
    '| case | answers | non-200 | expiries | chain reads | reads per expiry (max) | cache reads that waited for the chain | expiry windows: answers, p50 / p99 / max ms | between: answers, p50 / p99 / max ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const c of cases) {
    for (const r of Object.values(reads)) r.length = 0;
    const counter = c.counter as 'rates' | 'holdings';
    // Warm: the entry exists when the load starts, so every refresh below is an expiry under load.
    await (await fetch(svc.url + c.path, { headers })).arrayBuffer();
    const started = now();
    const [waitedBefore, answeredBefore] = [waited[counter], answered[counter]];
    const spec: LoadSpec = { url: svc.url + c.path, headers, concurrency: CONCURRENCY, seconds: SECONDS };
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', __filename, 'load', JSON.stringify(spec)], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const answers = (JSON.parse(stdout) as [number, number, number][]).filter(([t]) => t >= started);
    const own = reads[c.counter]!.filter((r) => r.start >= started);
    // One expiry: the reads that start within half a ttl of its first one.
    const expiries: { start: number; end: number; reads: number }[] = [];
    for (const r of own.sort((a, b) => a.start - b.start)) {
      const last = expiries[expiries.length - 1];
      if (last && r.start - last.start < TTL_MS / 2) {
        last.reads++;
        last.end = Math.max(last.end, r.end);
      } else expiries.push({ start: r.start, end: r.end, reads: 1 });
    }
    const windows = [...expiries, ...reads.priceUsd!.filter((r) => r.start >= started).map((r) => ({ ...r, reads: 0 }))];
    const inWindow = ([t, lat]: [number, number, number]) => windows.some((w) => t <= w.end + 20 && t + lat >= w.start - 20);
    const during = answers.filter(inWindow).map((a) => a[1]);
    const between = answers.filter((a) => !inWindow(a)).map((a) => a[1]);
    const fmt = (xs: number[]) => `${xs.length}, ${pct(xs, 50).toFixed(1)} / ${pct(xs, 99).toFixed(1)} / ${Math.max(...xs).toFixed(1)}`;
    console.log(
      `| ${c.name} | ${answers.length} | ${answers.filter((a) => a[2] !== 200).length} | ${expiries.length} | ${own.length}${reads.priceUsd!.length ? ` (+${reads.priceUsd!.length} price)` : ''} | ${(own.length / Math.max(1, expiries.length)).toFixed(2)} (${Math.max(0, ...expiries.map((e) => e.reads))}) | ${waited[counter] - waitedBefore} of ${answered[counter] - answeredBefore} | ${fmt(during)} | ${fmt(between)} |`,
    );
    if (process.env.BENCH_VERBOSE)
      for (const e of expiries) console.log(`  expiry at +${(e.start - started).toFixed(0)} ms: ${e.reads} read(s), ${(e.end - e.start).toFixed(1)} ms`);
  }
  await svc.stop();
  process.exit(0);
}

if (process.argv[2] === 'load') void loadChild(JSON.parse(process.argv[3]!) as LoadSpec);
else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
