/**
 * The memory store and MongoDB side by side, in one run, on the same machine:
 * the service as `npm start` composes it, once per store, on its own sandbox
 * devnets.
 *  - REST: GET /v1/wallets/:userId (key lookup, rate window, credits, wallet
 *    read: the store on every request) from a separate load process,
 *    BENCH_CONCURRENCY keep-alive clients for BENCH_SECONDS.
 *  - Intents: BENCH_INTENTS no-bridge lends of 2 USDC posted at once over REST,
 *    one wallet each (funded first); throughput = intents over first created →
 *    last completed (server timestamps), every one must complete.
 * MongoDB is MONGODB_URI when set, else the bundled MongoDB-compatible test
 * server (the test lane's jongodb), as a single-node replica set.
 *
 * Run: npx ts-node --transpile-only bench/storeLanes.ts
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService, type RunningService } from '../src/service';
import { mongoBinary, startTestMongo } from '../test/setup/mongoServer';
import type { Json } from '../test/helpers/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const INTENTS = Number(process.env.BENCH_INTENTS ?? 30);
const ADMIN = 'bench-admin-token-0123456789';

interface LaneResult {
  lane: string;
  restRps: number;
  restErrors: number;
  intentsPerSecond: number;
  intentP50Ms: number;
  completed: number;
}

async function load(url: string, headers: Record<string, string>): Promise<{ rps: number; errors: number }> {
  const spec = JSON.stringify({ url, method: 'GET', body: '', headers, concurrency: CONCURRENCY, seconds: SECONDS });
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', 'bench/support/httpLoad.ts', spec], {
    encoding: 'utf8',
  });
  const r = JSON.parse(stdout) as { requests: number; errors: number; seconds: number };
  return { rps: r.requests / r.seconds, errors: r.errors };
}

async function call(svc: RunningService, method: string, path: string, key: string, body?: unknown): Promise<Json> {
  const res = await fetch(svc.url + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function lane(name: string, env: Record<string, string>): Promise<LaneResult> {
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: ADMIN, ...env }), createLogger('silent'));
  try {
    // a rate limit the load cannot reach: the bench measures the path, not the 429s
    const acct = await call(svc, 'POST', '/admin/accounts', ADMIN, { plan: 'enterprise', requestsPerMinute: 1_000_000 });
    const key: string = acct.apiKey.key;
    await call(svc, 'POST', '/v1/wallets', key, { userId: 'bench' });
    const auth = { Authorization: `Bearer ${key}` };
    await load(`${svc.url}/v1/wallets/bench`, auth); // warm-up
    const rest = await load(`${svc.url}/v1/wallets/bench`, auth);

    const wallets = [];
    for (let i = 0; i < INTENTS; i++) {
      const w = await call(svc, 'POST', '/v1/wallets', key, { userId: `lend-${i}` });
      await call(svc, 'POST', '/admin/sandbox/mint', ADMIN, { chain: 'base-sepolia', asset: 'USDC', address: w.address, amount: '2' });
      wallets.push(w);
    }
    const done = new Map<string, Json>();
    const off = svc.deps.engine.bus.listen('all', (i) => {
      if (i.status === 'completed' || i.status === 'failed') done.set(i.id, i);
    });
    const posted = await Promise.all(
      wallets.map((w) => call(svc, 'POST', '/v1/intents', key, { walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' })),
    );
    const deadline = Date.now() + 120_000;
    while (posted.some((p) => !done.has(p.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    off();
    const finals = posted.map((p) => done.get(p.id)).filter((i) => i !== undefined);
    const completed = finals.filter((i) => i.status === 'completed');
    const first = Math.min(...finals.map((i) => Date.parse(i.createdAt)));
    const last = Math.max(...completed.map((i) => Date.parse(i.completedAt)));
    const latencies = completed.map((i) => Date.parse(i.completedAt) - Date.parse(i.createdAt)).sort((a, b) => a - b);
    return {
      lane: name,
      restRps: rest.rps,
      restErrors: rest.errors,
      intentsPerSecond: completed.length / ((last - first) / 1000),
      intentP50Ms: latencies[Math.floor(latencies.length / 2)] ?? NaN,
      completed: completed.length,
    };
  } finally {
    await svc.stop();
  }
}

async function main(): Promise<void> {
  console.log(
    `command: npx ts-node --transpile-only bench/storeLanes.ts   load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  let uri = process.env.MONGODB_URI;
  let stopMongo = async (): Promise<void> => undefined;
  let server = 'MongoDB at MONGODB_URI';
  if (!uri) {
    const binary = mongoBinary();
    if (!binary) throw new Error('no MONGODB_URI and no bundled test server binary on this platform');
    const mongo = await startTestMongo(binary);
    uri = mongo.uri;
    stopMongo = () => mongo.stop();
    server = 'the bundled MongoDB-compatible test server (jongodb 0.1.6)';
  }
  const db = `bench_${randomBytes(4).toString('hex')}`;
  const mongoUri = uri.replace(/\/[^/?]*(\?|$)/, `/${db}$1`);
  try {
    const results = [await lane('memory', {}), await lane('mongo', { MONGODB_URI: mongoUri, KEY_VAULT_MASTER_KEY: randomBytes(32).toString('hex') })];
    const [memory] = results;
    console.log(`MongoDB: ${server}; REST: ${CONCURRENCY} clients × ${SECONDS} s, separate load process; intents: ${INTENTS} no-bridge lends at once`);
    console.log('| store | GET /v1/wallets/:userId req/s | vs memory | errors | intents/s | vs memory | intent p50 ms | completed |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.lane} | ${r.restRps.toFixed(0)} | ${(r.restRps / memory!.restRps).toFixed(2)}× | ${r.restErrors} | ${r.intentsPerSecond.toFixed(2)} | ${(r.intentsPerSecond / memory!.intentsPerSecond).toFixed(2)}× | ${r.intentP50Ms} | ${r.completed} / ${INTENTS} |`,
      );
    }
  } finally {
    await stopMongo();
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
