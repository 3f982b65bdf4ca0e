/**
 * REST throughput of the service against a bare Koa app, in the same run,
 * interleaved: GET /v1/yields with an API key (auth, rate window, credits;
 * warm read cache; answered by the front door's fast keyed read, which runs
 * the route's admission and charge) and GET /healthz, plus what the
 * per-request access log at `info` costs against `silent`.
 *
 * Run: npx ts-node --transpile-only bench/restThroughput.ts
 *   BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONCURRENCY (50),
 *   BENCH_LOG_FILE (the service's stdout; default a file under /tmp, removed after; /dev/null possible),
 *   BENCH_BEFORE=<another checkout, e.g. a git worktree of the previous commit with node_modules>: its
 *   service is started too and measured in the same interleaved rounds (rows "(before)" and a
 *   before/after table), so a change is compared under the same machine load.
 *
 * Besides requests/s, each row gives the server's CPU time per request (user + system of its
 * process, all threads, over the run / answered requests): on a machine shared with other jobs
 * the share of the cores a server gets varies from run to run, its CPU per request much less.
 *
 * Three kinds of process, so no two share a CPU queue they do not have to:
 * - the service, started as `npm start` starts it (startService + createLogger(config.logLevel),
 *   NODE_ENV=production, LOG_LEVEL=info, memory store, sandbox devnets), its stdout (the log)
 *   redirected to BENCH_LOG_FILE as production would send it to a pipe;
 * - a bare Koa app answering the same JSON bodies from constants (no auth, no log);
 * - autocannon (programmatic API), one process per measurement.
 * The orchestrator (this process) only starts them and prints the table.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, statSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const ADMIN = 'bench-admin-token-0123456789abcdef';

type Message = { url: string; key?: string; yields?: string; healthz?: string } | { ok: true };

// ---------------------------------------------------------------- children

/** CPU time (user + system) this process has used, in microseconds. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * CPU time of the main thread alone, in microseconds (Linux: the scheduler's
 * own count for the thread; 0 elsewhere): the rest of the process's CPU is
 * libuv's threads (the log's asynchronous writes) and V8's (GC, compiler).
 */
function mainThreadCpuMicros(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return 0;
  }
}

/** What a server child answers `{cpu: true}` with. */
const cpuNow = () => ({ cpu: cpuMicros(), main: mainThreadCpuMicros() });

/** The service, as main.ts starts it; `{level}` messages set the root logger's level. */
async function serveService(root: string): Promise<void> {
  const { loadConfig } = (await import(`${root}/src/config`)) as typeof import('../src/config');
  const { createLogger } = (await import(`${root}/src/logger`)) as typeof import('../src/logger');
  const { startService } = (await import(`${root}/src/service`)) as typeof import('../src/service');
  const config = loadConfig({ ...process.env, PORT: '0', NODE_ENV: 'production', ADMIN_TOKEN: ADMIN });
  const logger = createLogger(config.logLevel);
  const svc = await startService(config, logger);
  // An enterprise account whose rate limit the load cannot reach: the bench measures the path, not 429s.
  const acct = await (
    await fetch(`${svc.url}/admin/accounts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ plan: 'enterprise', requestsPerMinute: 1_000_000 }),
    })
  ).json();
  const key = acct.apiKey.key as string;
  const yields = await (await fetch(`${svc.url}/v1/yields`, { headers: { Authorization: `Bearer ${key}` } })).text();
  const healthz = await (await fetch(`${svc.url}/healthz`)).text();
  process.on('message', (m: { level?: string; stop?: boolean; cpu?: boolean }) => {
    if (m.cpu) process.send!(cpuNow());
    if (m.level) {
      logger.level = m.level;
      process.send!({ ok: true });
    }
    if (m.stop) {
      // as main.ts does on SIGTERM
      void svc.stop().then(() => process.exit(0));
    }
  });
  process.send!({ url: svc.url, key, yields, healthz } satisfies Message);
}

/** A bare Koa app: the same bodies, from constants. */
async function serveBare(bodies: { yields: string; healthz: string }): Promise<void> {
  const { default: Koa } = await import('koa');
  const yields = JSON.parse(bodies.yields) as unknown;
  const healthz = JSON.parse(bodies.healthz) as unknown;
  const app = new Koa();
  app.use((ctx) => {
    if (ctx.path === '/v1/yields') ctx.body = yields;
    else if (ctx.path === '/healthz') ctx.body = healthz;
    else ctx.status = 404;
  });
  const server = app.listen(0, '127.0.0.1', () => {
    process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies Message);
  });
  process.on('message', (m: { stop?: boolean; cpu?: boolean }) => {
    if (m.cpu) process.send!(cpuNow());
    if (m.stop) server.close(() => process.exit(0));
  });
}

type Autocannon = (o: { url: string; headers: Record<string, string>; connections: number; duration: number; pipelining: number }) => Promise<{
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}>;

/** autocannon against one URL; prints {rps, non2xx, errors}. */
async function runLoad(spec: { url: string; headers: Record<string, string>; seconds: number }): Promise<void> {
  // (autocannon ships no types; this is the part of its result the bench reads)
  const name = 'autocannon';
  const autocannon = ((await import(name)) as { default: Autocannon }).default;
  const r = await autocannon({ url: spec.url, headers: spec.headers, connections: CONCURRENCY, duration: spec.seconds, pipelining: 1 });
  const ok = r['2xx'];
  process.stdout.write(JSON.stringify({ rps: ok / (r.duration || spec.seconds), non2xx: r.non2xx, errors: r.errors + r.timeouts }));
}

// ---------------------------------------------------------------- orchestrator

/**
 * Children load TypeScript through this hook (TypeScript's transpileModule,
 * as `npm start`'s build does), not ts-node: ts-node/register loads Node's
 * `domain` module, which slows every EventEmitter of the process (about 2 %
 * of the service's CPU in a profile) and is not there in production.
 */
const HOOK = `const ts = require(${JSON.stringify(require.resolve('typescript'))});
const fs = require('node:fs');
const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, resolveJsonModule: true };
require.extensions['.ts'] = (m, filename) => m._compile(ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions: options, fileName: filename }).outputText, filename);
`;
const hookFile = `/tmp/restThroughput-hook-${process.pid}.js`;

/** Extra node arguments for a server process (a profiler: `--cpu-prof --cpu-prof-dir=/tmp/prof`). */
const nodeArgs: Record<string, string | undefined> = { 'serve-service': process.env.BENCH_SERVICE_NODE_ARGS, 'serve-bare': process.env.BENCH_BARE_NODE_ARGS };

function start(role: string, arg: unknown, stdout: number | 'inherit' | 'ignore' = 'ignore'): Promise<{ child: ChildProcess; msg: Message }> {
  const child = fork(__filename, [role, JSON.stringify(arg ?? null)], {
    execArgv: ['-r', hookFile, ...(nodeArgs[role]?.split(' ') ?? [])],
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (msg: Message) => resolve({ child, msg }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

function ask<T = unknown>(child: ChildProcess, m: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (reply: T) => resolve(reply));
    child.send(m);
  });
}

/**
 * One measurement: requests/s, and the server's CPU time per answered
 * request (its process's user + system time over the run / 2xx answers).
 * On a machine shared with other jobs the server gets a varying share of
 * the cores, which moves requests/s; CPU per request does not depend on it.
 */
async function measure(server: ChildProcess, url: string, headers: Record<string, string>): Promise<Measured> {
  const before = await ask<ReturnType<typeof cpuNow>>(server, { cpu: true });
  const r = await load(url, headers);
  const after = await ask<ReturnType<typeof cpuNow>>(server, { cpu: true });
  const answers = r.rps * SECONDS;
  return { ...r, cpuUs: (after.cpu - before.cpu) / answers, mainUs: (after.main - before.main) / answers };
}

async function load(url: string, headers: Record<string, string>, seconds = SECONDS): Promise<{ rps: number; non2xx: number; errors: number }> {
  const child = fork(__filename, ['load', JSON.stringify({ url, headers, seconds })], {
    execArgv: ['-r', hookFile],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load exited ${code}`)))));
  return JSON.parse(out) as { rps: number; non2xx: number; errors: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** cpuUs: the server process's CPU per answer (all threads); mainUs: its main thread's alone. */
type Measured = { rps: number; cpuUs: number; mainUs: number; non2xx: number; errors: number };

async function orchestrate(): Promise<void> {
  writeFileSync(hookFile, HOOK);
  const logFile = (tag: string) => process.env.BENCH_LOG_FILE ?? `/tmp/restThroughput-${process.pid}-${tag}.log`;
  const root = join(__dirname, '..');
  // BENCH_BEFORE=<another checkout of this repository> starts its service too, measured in the same interleaved rounds.
  const roots: [string, string][] = [['service', root], ...(process.env.BENCH_BEFORE ? [['before', process.env.BENCH_BEFORE] as [string, string]] : [])];
  const services: { tag: string; child: ChildProcess; url: string; key: string; logFile: string }[] = [];
  let bodies: { yields: string; healthz: string } | undefined;
  for (const [tag, dir] of roots) {
    const fd = openSync(logFile(tag), 'w');
    const started = await start('serve-service', dir, fd);
    closeSync(fd);
    const m = started.msg as { url: string; key: string; yields: string; healthz: string };
    bodies ??= { yields: m.yields, healthz: m.healthz };
    services.push({ tag, child: started.child, url: m.url, key: m.key, logFile: logFile(tag) });
  }
  const bare = await start('serve-bare', bodies);
  const bareUrl = (bare.msg as { url: string }).url;

  /** The cases of one round, in order: bare first, then each service. */
  const cases: { name: string; run(): Promise<Measured> }[] = [];
  const auth = (svc: (typeof services)[number]) => ({ Authorization: `Bearer ${svc.key}` });
  cases.push({ name: 'bare yields', run: () => measure(bare.child, `${bareUrl}/v1/yields`, auth(services[0]!)) });
  for (const svc of services) {
    cases.push({ name: `${svc.tag} yields info`, run: () => measure(svc.child, `${svc.url}/v1/yields`, auth(svc)) });
    cases.push({
      name: `${svc.tag} yields silent`,
      run: async () => {
        await ask(svc.child, { level: 'silent' });
        try {
          return await measure(svc.child, `${svc.url}/v1/yields`, auth(svc));
        } finally {
          await ask(svc.child, { level: 'info' });
        }
      },
    });
  }
  cases.push({ name: 'bare healthz', run: () => measure(bare.child, `${bareUrl}/healthz`, {}) });
  for (const svc of services) cases.push({ name: `${svc.tag} healthz`, run: () => measure(svc.child, `${svc.url}/healthz`, {}) });

  // warm-up: JIT, the read caches, connection pools
  await load(`${bareUrl}/v1/yields`, {}, 2);
  await load(`${bareUrl}/healthz`, {}, 2);
  for (const svc of services) {
    await load(`${svc.url}/v1/yields`, auth(svc), 2);
    await load(`${svc.url}/healthz`, {}, 2);
  }

  // BENCH_CASES='service yields info,...' runs only those (e.g. under a profiler: BENCH_SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof')
  const only = process.env.BENCH_CASES?.split(',');
  const results = new Map<string, Measured[]>(cases.map((c) => [c.name, []]));
  let bad = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // every other round runs the cases in reverse order, so no case always follows the same one
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      if (only && !only.includes(c.name)) continue;
      const r = await c.run();
      results.get(c.name)!.push(r);
      bad += r.non2xx + r.errors;
      process.stderr.write(
        `round ${round + 1} ${c.name}: ${r.rps.toFixed(0)} req/s, ${r.cpuUs.toFixed(1)} µs CPU/request (main thread ${r.mainUs.toFixed(1)}) (non-2xx ${r.non2xx}, errors ${r.errors})\n`,
      );
    }
  }
  for (const svc of services) svc.child.send({ stop: true });
  bare.child.send({ stop: true });
  await Promise.all(services.map((svc) => new Promise((r) => svc.child.once('exit', r))));
  const logMb = services.map((svc) => `${svc.tag} ${(statSync(svc.logFile).size / 1e6).toFixed(1)} MB`).join(', ');
  if (!process.env.BENCH_LOG_FILE) for (const svc of services) rmSync(svc.logFile);
  rmSync(hookFile);
  if (only) process.exit(0);

  const runs = (name: string) => results.get(name)!;
  const med = (name: string, f: (r: Measured) => number) => median(runs(name).map(f));
  // ratios per round (the two measured back to back), then the median of those
  const ratio = (a: string, d: string) => median(runs(a).map((x, i) => x.rps / runs(d)[i]!.rps));
  // the throughput ratio a CPU-bound server reaches: the other side's CPU per request / this side's
  const cpuRatio = (a: string, d: string) => median(runs(a).map((x, i) => runs(d)[i]!.cpuUs / x.cpuUs));
  const cpu = (name: string) => `${med(name, (r) => r.cpuUs).toFixed(1)} (${med(name, (r) => r.mainUs).toFixed(1)})`;
  const fmt = (n: number) => n.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  console.log(
    `autocannon -c ${CONCURRENCY}, ${ROUNDS} interleaved rounds × ${SECONDS} s per target; services NODE_ENV=production, memory store, log level info → ${process.env.BENCH_LOG_FILE ?? 'a file under /tmp'} (${logMb}); medians of rounds; ratios are medians of per-round ratios`,
  );
  console.log('| row | service req/s | bare Koa req/s | ratio | service CPU µs/req (main thread) | bare CPU µs/req (main thread) | CPU ratio (bare/service) |');
  console.log('|---|---|---|---|---|---|---|');
  const row = (label: string, a: string, d: string) =>
    console.log(
      `| ${label} | ${fmt(med(a, (r) => r.rps))} | ${fmt(med(d, (r) => r.rps))} | ${ratio(a, d).toFixed(2)}× | ${cpu(a)} | ${cpu(d)} | ${cpuRatio(a, d).toFixed(2)}× |`,
    );
  for (const svc of services) {
    const t = svc.tag === 'service' ? '' : ` (${svc.tag})`;
    row(`GET /v1/yields with key (warm cache)${t}`, `${svc.tag} yields info`, 'bare yields');
    row(`GET /healthz${t}`, `${svc.tag} healthz`, 'bare healthz');
    row(`GET /v1/yields with key, log silent${t}`, `${svc.tag} yields silent`, 'bare yields');
  }
  for (const svc of services) {
    const t = svc.tag === 'service' ? '' : ` (${svc.tag})`;
    const info = `${svc.tag} yields info`;
    const silent = `${svc.tag} yields silent`;
    console.log(
      `| access log: info vs silent (yields)${t} | ${fmt(med(info, (r) => r.rps))} vs ${fmt(med(silent, (r) => r.rps))} | | info costs ${((1 - ratio(info, silent)) * 100).toFixed(1)} % | ${cpu(info)} vs ${cpu(silent)} | | info costs ${((1 - cpuRatio(info, silent)) * 100).toFixed(1)} % |`,
    );
  }
  if (services.length > 1) {
    const [after, before] = services;
    console.log(`\n| ${after!.tag} vs ${before!.tag} (same run) | req/s ratio | CPU/request ratio (${before!.tag}/${after!.tag}) |`);
    console.log('|---|---|---|');
    for (const [label, c] of [
      ['GET /v1/yields with key', 'yields info'],
      ['GET /healthz', 'healthz'],
      ['GET /v1/yields, log silent', 'yields silent'],
    ] as const) {
      console.log(
        `| ${label} | ${ratio(`${after!.tag} ${c}`, `${before!.tag} ${c}`).toFixed(2)}× | ${cpuRatio(`${after!.tag} ${c}`, `${before!.tag} ${c}`).toFixed(2)}× |`,
      );
    }
  }
  if (bad > 0) console.log(`non-2xx or errors: ${bad}`);
  process.exit(0);
}

const [role, arg] = process.argv.slice(2);
const run =
  role === 'serve-service'
    ? serveService(JSON.parse(arg!) as string)
    : role === 'serve-bare'
      ? serveBare(JSON.parse(arg!) as { yields: string; healthz: string })
      : role === 'load'
        ? runLoad(JSON.parse(arg!) as { url: string; headers: Record<string, string>; seconds: number })
        : orchestrate();
run.catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
