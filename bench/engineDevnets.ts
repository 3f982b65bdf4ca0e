/**
 * Intent engine on the real sandbox devnets: the service as `npm start` runs it
 * (its own 3 hardhat devnets, contracts deployed), 50 wallets funded through
 * the admin mint, 50 lend intents (25 no-bridge, 25 single-bridge) posted at
 * once over REST and polled until final.
 *
 * Baseline in the same run, first: single intents alone on an idle service,
 * one after another (3 no-bridge, 3 single-bridge; the median of each kind,
 * since one sample is at the mercy of other load on the machine); the loaded
 * latencies are compared with them.
 * Latency is created → final from the intent's own timestamps (server clock:
 * createdAt → completedAt/updatedAt), so the polling interval does not blur it;
 * throughput is intents over first createdAt → last final.
 *
 * Run: npx ts-node --transpile-only bench/engineDevnets.ts
 */
import { loadavg } from 'node:os';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService, type RunningService } from '../src/service';
import { int, MiB, ms, RssSampler, summary } from './support/benchStats';
import { assertDevnetsStopped, descendants, totals } from './support/procStats';

const ADMIN_TOKEN = 'bench-admin-token-123456';
const INTENTS = Number(process.env.BENCH_INTENTS ?? 50);
/** Poll interval per intent (the API's Retry-After says 5 s; the bench asks more often, within the enterprise rate limit). */
const POLL_MS = 250;
/** Every intent must be final within this long, or the bench fails. */
const FINAL_WITHIN_MS = 180_000;

type Kind = 'no-bridge' | 'single-bridge';

/** Where each kind's funds are minted: base-sepolia has the best USDC APY, so funds elsewhere need one bridge. */
const FUNDING: Record<Kind, { chain: string; amount: string }> = {
  'no-bridge': { chain: 'base-sepolia', amount: '25' },
  'single-bridge': { chain: 'arbitrum-sepolia', amount: '25' },
};
const LEND_AMOUNT = '20';
/** Solo intents per kind for the baseline. */
const ALONE = 3;

interface Json {
  [k: string]: unknown;
}

interface Outcome {
  kind: Kind;
  status: string;
  strategy: string | undefined;
  /** Server clock: createdAt → completedAt (or the failing update), ms. */
  latencyMs: number;
  createdAt: number;
  finalAt: number;
  /** Client clock: POST sent → final answer seen (includes up to one poll interval). */
  observedMs: number;
  error?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function client(svc: RunningService) {
  const call = async (method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    // bounded: a 429 waits for its Retry-After, at most 5 times
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(svc.url + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 5) {
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
    }
  };
  // started in development: the generated development key is there
  const key = svc.devApiKey!;
  return {
    async wallet(userId: string): Promise<{ id: string; address: string }> {
      const r = await call('POST', '/v1/wallets', key, { userId });
      if (r.status !== 201) throw new Error(`POST /v1/wallets: ${r.status} ${JSON.stringify(r.body)}`);
      return { id: String(r.body.id), address: String(r.body.address) };
    },
    async mint(chain: string, address: string, amount: string): Promise<void> {
      const r = await call('POST', '/admin/sandbox/mint', ADMIN_TOKEN, { chain, asset: 'USDC', address, amount });
      if (r.status !== 200) throw new Error(`mint on ${chain}: ${r.status} ${JSON.stringify(r.body)}`);
    },
    async lend(walletId: string): Promise<Json> {
      const r = await call('POST', '/v1/intents', key, { walletId, action: 'lend', amount: LEND_AMOUNT, asset: 'USDC' });
      if (r.status !== 201) throw new Error(`POST /v1/intents: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
    async intent(id: string): Promise<Json> {
      const r = await call('GET', `/v1/intents/${id}`, key);
      if (r.status !== 200) throw new Error(`GET /v1/intents/${id}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
  };
}
type Client = ReturnType<typeof client>;

/** Posts a lend for `walletId` and polls it until final (bounded by FINAL_WITHIN_MS). */
async function runOne(api: Client, walletId: string, kind: Kind): Promise<Outcome> {
  const sent = performance.now();
  const created = await api.lend(walletId);
  const deadline = Date.now() + FINAL_WITHIN_MS;
  for (;;) {
    const i = await api.intent(String(created.id));
    if (i.status === 'completed' || i.status === 'failed') {
      const createdAt = Date.parse(String(i.createdAt));
      const finalAt = Date.parse(String(i.completedAt ?? i.updatedAt));
      const plan = i.executionPlan as { strategy?: string } | null;
      const error = i.error as { code?: string; message?: string } | undefined;
      return {
        kind,
        status: String(i.status),
        strategy: plan?.strategy,
        latencyMs: finalAt - createdAt,
        createdAt,
        finalAt,
        observedMs: performance.now() - sent,
        error: error && `${error.code}: ${error.message}`,
      };
    }
    if (Date.now() > deadline) throw new Error(`intent ${String(created.id)} not final after ${FINAL_WITHIN_MS} ms (status ${String(i.status)})`);
    await sleep(POLL_MS);
  }
}

/** A fresh wallet holding the kind's funds. */
async function fundedWallet(api: Client, name: string, kind: Kind): Promise<string> {
  const w = await api.wallet(name);
  await api.mint(FUNDING[kind].chain, w.address, FUNDING[kind].amount);
  return w.id;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DEV_PLAN: 'enterprise', ADMIN_TOKEN }), createLogger('silent'));
  const startupMs = Date.now() - t0;
  // the devnet nodes (and whatever they spawned), to measure them and to prove they are gone at the end
  const nodes = descendants().map((p) => p.pid);
  let rss: RssSampler | undefined;
  let nodesTimer: NodeJS.Timeout | undefined;
  try {
    const api = client(svc);
    const kinds: Kind[] = Array.from({ length: INTENTS }, (_, n) => (n % 2 === 0 ? 'no-bridge' : 'single-bridge'));
    const fundStart = performance.now();
    const soloKinds: Kind[] = Array.from({ length: 2 * ALONE }, (_, n) => (n < ALONE ? 'no-bridge' : 'single-bridge'));
    const soloWallets: string[] = [];
    for (const [n, kind] of soloKinds.entries()) soloWallets.push(await fundedWallet(api, `bench-alone-${n}`, kind));
    const wallets: string[] = [];
    for (const [n, kind] of kinds.entries()) wallets.push(await fundedWallet(api, `bench-${n}`, kind));
    const fundMs = performance.now() - fundStart;

    // baseline: one intent at a time on an idle service
    const baseline: Outcome[] = [];
    for (const [n, kind] of soloKinds.entries()) baseline.push(await runOne(api, soloWallets[n]!, kind));
    const soloNoBridge = baseline.filter((o) => o.kind === 'no-bridge');
    const soloBridge = baseline.filter((o) => o.kind === 'single-bridge');

    rss = new RssSampler(50);
    let nodesPeak = totals(nodes).rssBytes;
    nodesTimer = setInterval(() => (nodesPeak = Math.max(nodesPeak, totals(nodes).rssBytes)), 50);
    const cpu0 = process.cpuUsage();
    const nodesCpu0 = totals(nodes).cpuMs;
    const wall0 = performance.now();
    const loaded = await Promise.all(wallets.map((w, n) => runOne(api, w, kinds[n]!)));
    const wallMs = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const nodesCpuMs = totals(nodes).cpuMs - nodesCpu0;
    clearInterval(nodesTimer);
    const mem = rss.stop();
    rss = undefined;

    const all = [...baseline, ...loaded];
    const completed = loaded.filter((o) => o.status === 'completed').length;
    const failed = loaded.filter((o) => o.status === 'failed').length;
    if (completed + failed !== INTENTS) throw new Error(`${completed} completed + ${failed} failed ≠ ${INTENTS}`);
    const wrongPlan = all.filter((o) => o.status === 'completed' && o.strategy !== o.kind);
    const windowS = (Math.max(...loaded.map((o) => o.finalAt)) - Math.min(...loaded.map((o) => o.createdAt))) / 1000;

    const row = (name: string, outcomes: Outcome[], base: number) => {
      const lat = summary(outcomes.map((o) => o.latencyMs));
      const seen = summary(outcomes.map((o) => o.observedMs));
      const ok = outcomes.filter((o) => o.status === 'completed').length;
      return `| ${name} | ${outcomes.length} | ${ms(lat.p50)} | ${ms(lat.p99)} | ${ms(seen.p50)} | ${(lat.p50 / base).toFixed(2)}× | ${ok} / ${outcomes.length - ok} |`;
    };
    const b0 = summary(soloNoBridge.map((o) => o.latencyMs)).p50;
    const b1 = summary(soloBridge.map((o) => o.latencyMs)).p50;
    console.log(
      `start-up (devnets + deploy + server): ${int(startupMs)} ms; ${soloWallets.length + wallets.length} wallets created and minted in ${int(fundMs)} ms`,
    );
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log('| case | intents | latency p50 ms | latency p99 ms | observed p50 ms | p50 vs alone | completed / failed |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(row('no-bridge alone (baseline)', soloNoBridge, b0));
    console.log(row('single-bridge alone (baseline)', soloBridge, b1));
    console.log(
      row(
        `${INTENTS} at once: no-bridge`,
        loaded.filter((o) => o.kind === 'no-bridge'),
        b0,
      ),
    );
    console.log(
      row(
        `${INTENTS} at once: single-bridge`,
        loaded.filter((o) => o.kind === 'single-bridge'),
        b1,
      ),
    );
    console.log(row(`${INTENTS} at once: all`, loaded, (b0 + b1) / 2));
    console.log(`| measure | figure |`);
    console.log('|---|---|');
    console.log(`| throughput, ${INTENTS} at once (first created → last final) | ${(INTENTS / windowS).toFixed(2)} intents/s over ${windowS.toFixed(2)} s |`);
    console.log(`| throughput, one at a time (1 / mean of the two baseline medians) | ${(2000 / (b0 + b1)).toFixed(2)} intents/s |`);
    console.log(`| peak RSS of the service process while the ${INTENTS} ran (at start) | ${int(mem.peakMiB)} MiB (${int(mem.startMiB)} MiB) |`);
    console.log(`| peak RSS of the ${nodes.length} devnet processes, summed | ${int(nodesPeak / MiB)} MiB |`);
    console.log(
      `| CPU while the ${INTENTS} ran: service process / devnet processes (100% = one core) | ${int(((cpu.user + cpu.system) / 1000 / wallMs) * 100)}% / ${int((nodesCpuMs / wallMs) * 100)}% |`,
    );
    console.log(`| completed / failed | ${completed} / ${failed} |`);
    for (const o of all.filter((x) => x.status !== 'completed')) console.log(`failed: ${o.kind}: ${o.error}`);
    for (const o of wrongPlan) console.log(`unexpected plan: ${o.kind} intent planned as ${o.strategy}`);
  } finally {
    clearInterval(nodesTimer);
    rss?.stop();
    await svc.stop();
  }
  assertDevnetsStopped(nodes);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
