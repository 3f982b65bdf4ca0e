/**
 * GraphQL query throughput of the service's /graphql (auth, rate window and
 * credits included) against a bare graphql-yoga server answering the same
 * query shape, in the same run, per transport:
 *   - POST application/json (the fast path),
 *   - GET ?query=&variables= ,
 *   - POST with Accept: application/graphql-response+json.
 * Rounds are interleaved (bare, service, bare, service, … per transport), so
 * a machine that gets busier or quieter during the run moves both sides.
 * Load: autocannon 9 in a child process (its CPU is not the server's),
 * -c 50 by default. The service runs with NODE_ENV=production semantics
 * (no GraphiQL, no introspection) and the default log level (info), logging
 * to /dev/null through the destination main.ts uses.
 * Run: NODE_ENV=production npx ts-node --transpile-only bench/graphqlThroughput.ts
 * Besides requests/s it prints the CPU time this process spent per answer
 * (only the server under load is busy), which other jobs on the machine
 * disturb far less than throughput: "CPU ratio" is bare µs / service µs, so
 * above 1 means the service spends less CPU per answer than bare yoga.
 * Knobs: BENCH_SECONDS (5), BENCH_CONCURRENCY (50), BENCH_ROUNDS (5), BENCH_ONLY (comma list of rows: post,get,strict),
 * BENCH_CPU_PROF=<file.cpuprofile> (a CPU profile of the service's first measured load of the first row only:
 * bare yoga runs in this process too, so no other window is profiled; e.g. BENCH_ONLY=get BENCH_ROUNDS=1).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { loadConfig } from '../src/config';
import { asyncDestination, createLogger } from '../src/logger';
import { startService } from '../src/service';
import { profileWindow } from './support/cpuProfile';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ONLY = (process.env.BENCH_ONLY ?? 'post,get,strict').split(',');
const QUERY = 'query W($u: String!) { wallet(userId: $u) { id userId address chains createdAt } }';
const VARIABLES = { u: 'bench' };

interface Row {
  id: string;
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

const ROWS: Row[] = [
  {
    id: 'post',
    name: 'POST application/json (fast path)',
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query: QUERY, variables: VARIABLES }),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  },
  {
    id: 'get',
    name: 'GET ?query=&variables=',
    method: 'GET',
    path: `/graphql?query=${encodeURIComponent(QUERY)}&variables=${encodeURIComponent(JSON.stringify(VARIABLES))}`,
    headers: { accept: 'application/graphql-response+json, application/json;q=0.9' },
  },
  {
    id: 'strict',
    name: 'POST, Accept: application/graphql-response+json',
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query: QUERY, variables: VARIABLES }),
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
  },
].filter((r) => ONLY.includes(r.id)) as Row[];

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of this process (the one server under load; the other idles) per answer, µs: robust to other jobs on the machine. */
  cpuUs: number;
}

/** autocannon's CLI in a child process (asynchronously: the servers under test live in this process). */
async function load(base: string, row: Row, headers: Record<string, string>): Promise<Load> {
  const args = [require.resolve('autocannon/autocannon.js'), '-j', '-n', '-c', String(CONCURRENCY), '-d', String(SECONDS), '-m', row.method];
  for (const [k, v] of Object.entries({ ...row.headers, ...headers })) args.push('-H', `${k}=${v}`);
  if (row.body !== undefined) args.push('-b', row.body);
  args.push(base + row.path);
  const cpu = process.cpuUsage();
  const { stdout } = await promisify(execFile)(process.execPath, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const used = process.cpuUsage(cpu);
  const r = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
    '2xx': number;
  };
  return {
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors + r.timeouts,
    cpuUs: (used.user + used.system) / Math.max(1, r['2xx']),
  };
}

async function bareYoga(): Promise<{ url: string; stop(): Promise<void> }> {
  const wallet = {
    id: 'svc_wallet_x',
    userId: 'bench',
    address: '0x0000000000000000000000000000000000000001',
    chains: ['BASE_SEPOLIA'],
    createdAt: new Date().toISOString(),
  };
  const yoga = createYoga({
    schema: createSchema({
      typeDefs:
        'type Wallet { id: ID! userId: String! address: String! chains: [String!]! createdAt: String! } type Query { wallet(userId: String!): Wallet! }',
      resolvers: { Query: { wallet: () => wallet } },
    }),
    logging: false,
  });
  const server = createServer(yoga);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => new Promise((r) => server.close(() => r())) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const bare = await bareYoga();
  const admin = 'bench-admin-token-0123456789';
  const env = { PORT: '0', ADMIN_TOKEN: admin, NODE_ENV: (process.env.NODE_ENV ?? 'production') as string, DASHBOARD: 'off' };
  // The destination main.ts logs through (createLogger's default, asyncDestination), on /dev/null instead of stdout.
  const svc = await startService(loadConfig(env), createLogger(process.env.LOG_LEVEL ?? 'info', asyncDestination('/dev/null')));
  // An enterprise account with a rate limit the load cannot reach: the bench measures the path, not the 429s.
  const acct = await (
    await fetch(`${svc.url}/admin/accounts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ plan: 'enterprise', requestsPerMinute: 1_000_000 }),
    })
  ).json();
  const auth = { authorization: `Bearer ${acct.apiKey.key}` };
  await fetch(`${svc.url}/v1/wallets`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"userId":"bench"}' });
  // Every row answers data on both servers before anything is measured.
  for (const row of ROWS) {
    for (const [base, h] of [
      [bare.url, {}],
      [svc.url, auth],
    ] as const) {
      const r = await fetch(base + row.path, { method: row.method, headers: { ...row.headers, ...h }, body: row.body });
      const text = await r.text();
      if (r.status !== 200 || !text.includes('"wallet":{')) throw new Error(`${row.id} on ${base}: ${r.status} ${text}`);
    }
  }

  const results = new Map<string, { bare: Load[]; svc: Load[] }>(ROWS.map((r) => [r.id, { bare: [], svc: [] }]));
  for (const row of ROWS) {
    await load(bare.url, row, {}); // warm-up, both sides
    await load(svc.url, row, auth);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const row of ROWS) {
      const res = results.get(row.id)!;
      // Alternate who goes first, so neither side always follows the other.
      const order = round % 2 === 0 ? (['bare', 'svc'] as const) : (['svc', 'bare'] as const);
      for (const side of order) {
        if (side === 'bare') {
          res.bare.push(await load(bare.url, row, {}));
          continue;
        }
        const stopProfile = await profileWindow(round === 0 && row === ROWS[0] ? process.env.BENCH_CPU_PROF : undefined);
        res.svc.push(await load(svc.url, row, auth));
        await stopProfile();
      }
    }
  }
  await svc.stop();
  await bare.stop();

  console.log(
    `autocannon -c ${CONCURRENCY} -d ${SECONDS}, ${ROUNDS} interleaved rounds per row (load from a child process), NODE_ENV=${env.NODE_ENV}, log level ${process.env.LOG_LEVEL ?? 'info'}`,
  );
  console.log(
    '| row | bare yoga req/s (median) | service req/s (median) | req/s ratio per round | req/s ratio (median) | CPU µs per answer, bare / service (median) | CPU ratio bare/service | service p50 / p99 ms | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of ROWS) {
    const { bare: b, svc: s } = results.get(row.id)!;
    const ratios = s.map((x, i) => x.rps / b[i]!.rps);
    const cpuRatios = s.map((x, i) => b[i]!.cpuUs / x.cpuUs);
    const errors = [...b, ...s].reduce((n, x) => n + x.errors, 0);
    console.log(
      `| ${row.name} | ${median(b.map((x) => x.rps)).toFixed(0)} | ${median(s.map((x) => x.rps)).toFixed(0)} | ${ratios.map((r) => r.toFixed(2)).join(' ')} | **${median(ratios).toFixed(2)}×** | ${median(b.map((x) => x.cpuUs)).toFixed(0)} / ${median(s.map((x) => x.cpuUs)).toFixed(0)} | ${median(cpuRatios).toFixed(2)}× | ${median(s.map((x) => x.p50))} / ${median(s.map((x) => x.p99))} | ${errors} |`,
    );
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
