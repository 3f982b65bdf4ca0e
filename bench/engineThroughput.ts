/**
 * Intent engine throughput: 10,000 intents over 1,000 wallets through the real
 * engine (createEngine over the memory store and the key vault) with an instant
 * in-process chain (bench/support/instantChain.ts: balances, allowances,
 * positions and CCTP burns/mints are booked; every call answers in the next
 * event-loop turn). All intents are submitted at once (insert + engine.submit,
 * as POST /v1/intents does); each wallet runs its 10 intents one after another.
 *
 * Baseline in the same run: the same 10,000 intents through the bare pipeline,
 * one after another: `advance()` (planIntent → plan(), executeNext) with
 * `commit` = `transition()` only, no actors, no store, no bus, signers derived
 * once, the chain answering in microtasks.
 *
 * Run: npx ts-node --transpile-only bench/engineThroughput.ts
 * (BENCH_WALLETS=n changes the wallet count; 10 intents per wallet;
 * BENCH_CASES=bare,small,full,watched picks the rows, all by default;
 * BENCH_CPU_PROF=file.cpuprofile profiles the engine's measured window;
 * BENCH_SIGN=1 has every send signed for real by the wallet's key;
 * BENCH_KEY_PROVIDER=pkcs11 makes those keys a SoftHSM2 token's instead of the vault's.)
 *
 * While the full-size engine row runs, a child process polls GET /healthz of
 * a tiny HTTP server in this process every 10 ms (HealthProbe): its answer
 * times are printed in a table of their own after the main one.
 */
import { randomBytes } from 'node:crypto';
import { createPkcs11Provider } from '../src/chain/keys/pkcs11/pkcs11Provider';
import { openPkcs11Token } from '../src/chain/keys/pkcs11/pkcs11Token';
import { createSoftToken, softhsmMissing, SOFTHSM_MODULE } from '../test/helpers/softhsm';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Address } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import type { ChainName } from '../src/domain/chains';
import { createSystemClock } from '../src/domain/clock';
import { newId } from '../src/domain/ids';
import type { Intent, IntentAction, Strategy } from '../src/domain/intent';
import { toUnits } from '../src/domain/money';
import type { Wallet } from '../src/domain/types';
import type { MarketRate } from '../src/ports/chain';
import { createKeyVault } from '../src/chain/keyVault';
import type { KeyVault } from '../src/ports/keyVault';
import { createMemoryStore } from '../src/store/memory/memoryStore';
import type { Store } from '../src/ports/store';
import { advance } from '../src/engine/advance';
import { createEngine } from '../src/engine/engine';
import { silentLogger } from '../src/engine/engineLogger';
import { DEFAULT_RETRY } from '../src/engine/retry';
import { isFinal, transition, type IntentEvent } from '../src/domain/intentStateMachine';
import type { UnitContext } from '../src/engine/unitContext';
import { InstantChain } from './support/instantChain';
import { doubleToken } from '../test/helpers/chainDoubles';
import { forceGc, HealthProbe, int, ms, RssSampler, summary, TurnMeter } from './support/benchStats';
import { profileWindow } from './support/cpuProfile';

const WALLETS = Number(process.env.BENCH_WALLETS ?? 1_000);
/** Rounds of every case; each row reports the median-throughput round. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Which rows to run: bare, small (a tenth of the wallets), full, watched. */
const CASES = new Set((process.env.BENCH_CASES ?? 'bare,small,full,watched').split(',').map((c) => c.trim()));
/**
 * Submissions between two turns of the event loop (BENCH_SUBMIT_BATCH; 0, the
 * default, submits every intent in one loop, awaiting each insert and submit).
 */
const SUBMIT_BATCH = Number(process.env.BENCH_SUBMIT_BATCH ?? 0);
/** The engine's turn budget (EngineOptions.turnBudgetMs; 0 = never yield); unset: the engine's default. */
const TURN_BUDGET_MS = process.env.BENCH_TURN_BUDGET_MS === undefined ? undefined : Number(process.env.BENCH_TURN_BUDGET_MS);
/** No run may take longer than this: the bench fails instead of hanging. */
const DEADLINE_MS = 300_000;
/** BENCH_CPU_PROF=file.cpuprofile: a CPU profile of the engine runs' measured windows (the last one run is kept). */
const CPU_PROF = process.env.BENCH_CPU_PROF;
const FEE_BPS = 5;
const CHAINS: ChainName[] = ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];

/** Test-network USDC markets: base-sepolia/aave-v3 is the best (as in test/unit/engine/engineHarness.ts). */
const USDC_TOKEN = doubleToken('USDC');
const MARKETS: MarketRate[] = [
  { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: USDC_TOKEN, apy: 4.2 },
  { chain: 'base-sepolia', protocol: 'compound-v3', asset: 'USDC', token: USDC_TOKEN, apy: 3.9 },
  { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', token: USDC_TOKEN, apy: 3.1 },
  { chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC', token: USDC_TOKEN, apy: 2.5 },
];

/** What each wallet starts with (USDC). */
const FUNDING: Partial<Record<ChainName, string>> = { 'base-sepolia': '60', 'arbitrum-sepolia': '100' };

interface Req {
  action: IntentAction;
  amount: string;
  chain?: ChainName;
  fromChain?: ChainName;
  toChain?: ChainName;
  /** The strategy the planner must pick on the ledger the earlier intents left. */
  expect: Strategy;
}

/**
 * Every wallet's 10 intents, in order: 5 no-bridge lends, 2 single-bridge
 * lends (base-sepolia runs dry), 2 withdraws, 1 bridge. Each is feasible on
 * what the ones before it leave, so every intent should complete.
 */
const SEQUENCE: Req[] = [
  { action: 'lend', amount: '10', expect: 'no-bridge' },
  { action: 'lend', amount: '10', expect: 'no-bridge' },
  { action: 'withdraw', amount: '5', chain: 'base-sepolia', expect: 'direct-withdraw' },
  { action: 'lend', amount: '10', expect: 'no-bridge' },
  { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'ethereum-sepolia', expect: 'single-bridge' },
  { action: 'lend', amount: '10', expect: 'no-bridge' },
  { action: 'lend', amount: '40', expect: 'single-bridge' },
  { action: 'lend', amount: '10', expect: 'single-bridge' },
  { action: 'withdraw', amount: '5', chain: 'base-sepolia', expect: 'direct-withdraw' },
  { action: 'lend', amount: '5', expect: 'no-bridge' },
];

/**
 * BENCH_KEY_PROVIDER=pkcs11: the wallets' keys are generated in a SoftHSM2
 * token of this run and every signature of the engine is made there (the
 * service's KEY_PROVIDER=pkcs11); `local` (default): the encrypted vault.
 */
const KEY_PROVIDER = process.env.BENCH_KEY_PROVIDER ?? 'local';
/** One token and one provider for the process (the library is initialised once; a token made after that is not seen); each setup's wallets write their key records to its own store. */
let tokenVault: { provider: KeyVault; store: Store; remove(): void } | undefined;
function pkcs11Vault(store: Store): KeyVault {
  if (!tokenVault) {
    const missing = softhsmMissing();
    if (missing) throw new Error(`BENCH_KEY_PROVIDER=pkcs11: ${missing}`);
    const soft = createSoftToken();
    const holder = { store, remove: () => soft.remove() } as { provider: KeyVault; store: Store; remove(): void };
    holder.provider = createPkcs11Provider({
      token: openPkcs11Token({ module: SOFTHSM_MODULE, tokenLabel: soft.label, pin: soft.pin, sessions: 4 }),
      walletKeys: () => holder.store.walletKeys,
    });
    tokenVault = holder;
  }
  tokenVault.store = store;
  return tokenVault.provider;
}
process.on('exit', () => tokenVault?.remove());

interface Env {
  store: Store;
  keyVault: KeyVault;
  chain: InstantChain;
  wallets: { id: string; address: Address }[];
  funded: bigint;
}

/** A memory store, a key vault and the chain double, with `walletCount` funded wallets (keys made by the vault). */
async function setup(walletCount: number, io: 'immediate' | 'microtask'): Promise<Env> {
  const clock = createSystemClock();
  const store = createMemoryStore(clock);
  const keyVault = KEY_PROVIDER === 'pkcs11' ? pkcs11Vault(store) : createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
  const chain = new InstantChain(MARKETS, FEE_BPS, { chains: CHAINS, io, sign: process.env.BENCH_SIGN === '1' });
  const wallets: Env['wallets'] = [];
  let funded = 0n;
  for (let n = 0; n < walletCount; n++) {
    const id = newId('wallet');
    const address = await keyVault.createKey(id);
    const w: Wallet = {
      id,
      accountId: 'acct_bench',
      userId: `bench_${n}`,
      address,
      evmAddress: address,
      chainType: 'ethereum',
      chains: CHAINS,
      email: null,
      metadata: {},
      createdAt: clock.now().toISOString(),
    };
    await store.wallets.insert(w);
    for (const [c, amount] of Object.entries(FUNDING)) {
      chain.fund(c as ChainName, address, 'USDC', toUnits(amount, 'USDC'));
      funded += toUnits(amount, 'USDC');
    }
    wallets.push({ id, address });
  }
  return { store, keyVault, chain, wallets, funded };
}

function pendingIntent(walletId: string, r: Req, now: string): Intent {
  return {
    id: newId('intent'),
    accountId: 'acct_bench',
    walletId,
    status: 'pending',
    action: r.action,
    amount: r.amount,
    requestedAmount: r.amount,
    asset: 'USDC',
    ...(r.chain && { chain: r.chain }),
    ...(r.fromChain && { fromChain: r.fromChain }),
    ...(r.toChain && { toChain: r.toChain }),
    executionPlan: null,
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
}

interface RunResult {
  name: string;
  intents: number;
  wallets: number;
  seconds: number;
  completed: number;
  failed: number;
  /** created → final, ms. */
  latency: number[];
  /** planning → final, ms (the intent's own work, without waiting behind its wallet's earlier intents). */
  service: number[];
  rss: { startMiB: number; peakMiB: number; samples: number };
  /** Heap still used after a full GC once every intent is final, per intent (the store keeps every intent). */
  retainedKiBPerIntent: number;
  /** Longest event-loop stall seen (one turn running every ready continuation). */
  loopDelayMaxMs: number;
  unexpected: string[];
  failures: Map<string, number>;
  /** GET /healthz answer times (ms) while the run went on, when probed. */
  healthz?: number[];
  /** How long the submission loop took (ms): every insert + submit, with whatever engine work ran in between. */
  submitMs?: number;
  /** Longest event-loop stall once the submission loop was over (the engine alone), ms. */
  loopDelayAfterSubmitMaxMs?: number;
  /** Longest turn after the submission loop, CPU-bound part (TurnMeter), ms; probed runs only. */
  turnCpuBoundMaxMs?: number;
  /** CPU time of this process (user + system, every thread) over the run, ms: what the run cost whatever else the machine ran. */
  cpuMs: number;
}

/** Checks every final intent against the plan it was meant to get; returns the mismatches (first few kept). */
function check(final: Intent[], reqs: Req[], result: RunResult): void {
  final.forEach((i, n) => {
    const r = reqs[n]!;
    if (i.status === 'completed') result.completed++;
    else if (i.status === 'failed') {
      result.failed++;
      const code = i.error?.code ?? 'UNKNOWN';
      result.failures.set(code, (result.failures.get(code) ?? 0) + 1);
    }
    const strategy = i.executionPlan?.strategy;
    if (i.status !== 'completed' || strategy !== r.expect) {
      if (result.unexpected.length < 5)
        result.unexpected.push(`${i.id} ${r.action} ${r.amount}: ${i.status} ${strategy ?? '-'} (expected ${r.expect}) ${i.error?.message ?? ''}`);
    }
  });
}

/** Funds are conserved: what was minted to the wallets is in balances, positions, unminted burns or route fees. */
function checkLedger(env: Env): void {
  const t = env.chain.totals('USDC');
  const sum = t.balances + t.positions + t.inFlight + env.chain.feesCollected;
  if (sum !== env.funded) throw new Error(`ledger not conserved: funded ${env.funded}, accounted ${sum}`);
  if (t.positions === 0n) throw new Error('no position was opened');
}

/** The intents in submission order: intent k of every wallet, then intent k + 1 (each wallet's own order kept). */
function workload(env: Env): { walletId: string; req: Req }[] {
  const out: { walletId: string; req: Req }[] = [];
  for (const req of SEQUENCE) for (const w of env.wallets) out.push({ walletId: w.id, req });
  return out;
}

/** Heap used after a full GC, bytes. */
function heapAfterGc(): number {
  forceGc();
  return process.memoryUsage().heapUsed;
}

interface EngineRunOptions {
  /**
   * One bus listener per intent on its own id from creation until it is final,
   * as GET-free clients watching their intent have (watchIntent behind the
   * GraphQL intentUpdated subscription and SSE).
   */
  watchers: boolean;
  /** Poll GET /healthz from a child process during the run. */
  healthz?: boolean;
}

/** The real engine: submit everything, wait for every intent to be final on the bus. */
async function runEngine(name: string, walletCount: number, o: EngineRunOptions): Promise<RunResult> {
  const env = await setup(walletCount, 'immediate');
  const clock = createSystemClock();
  const engine = createEngine({
    store: env.store,
    chains: env.chain,
    keyVault: env.keyVault,
    clock,
    logger: silentLogger,
    onWalletActivity: () => undefined,
    ...(TURN_BUDGET_MS !== undefined && { turnBudgetMs: TURN_BUDGET_MS }),
  });
  await engine.start();
  const work = workload(env);
  const index = new Map<string, number>();
  const created = new Float64Array(work.length);
  const planning = new Float64Array(work.length);
  const finalAt = new Float64Array(work.length);
  let done = 0;
  let allFinal!: () => void;
  const finished = new Promise<void>((resolve) => (allFinal = resolve));
  const off = engine.bus.listen('all', (i) => {
    const n = index.get(i.id);
    if (n === undefined) return;
    if (i.status === 'planning' && planning[n] === 0) planning[n] = performance.now();
    if (isFinal(i.status) && finalAt[n] === 0) {
      finalAt[n] = performance.now();
      if (++done === work.length) allFinal();
    }
  });

  const heapBefore = heapAfterGc();
  const probe = o.healthz ? await HealthProbe.start() : undefined;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rss = new RssSampler(50);
  const stopProfile = await profileWindow(CPU_PROF);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const ids: string[] = [];
  for (const [n, { walletId, req }] of work.entries()) {
    if (SUBMIT_BATCH > 0 && n % SUBMIT_BATCH === 0 && n > 0) await new Promise((resolve) => setImmediate(resolve));
    const intent = pendingIntent(walletId, req, clock.now().toISOString());
    index.set(intent.id, n);
    ids.push(intent.id);
    if (o.watchers) {
      const stop = engine.bus.listen({ intentId: intent.id }, (i) => {
        if (isFinal(i.status)) stop();
      });
    }
    created[n] = performance.now();
    await env.store.intents.insert(intent);
    await engine.submit(intent);
  }
  const submitMs = performance.now() - t0;
  const loopAfter = monitorEventLoopDelay({ resolution: 10 });
  loopAfter.enable();
  const turns = probe ? new TurnMeter() : undefined;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), DEADLINE_MS)));
  const outcome = await Promise.race([finished.then(() => 'done' as const), timedOut]);
  clearTimeout(timer);
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  await stopProfile();
  const mem = rss.stop();
  loop.disable();
  loopAfter.disable();
  const turnMax = turns?.stop();
  const healthz = await probe?.stop();
  const retained = heapAfterGc() - heapBefore;
  off();
  await engine.stop();
  if (outcome === 'timeout') throw new Error(`${name}: only ${done} of ${work.length} intents final after ${DEADLINE_MS} ms`);
  if (engine.bus.size() !== 0) throw new Error(`${name}: ${engine.bus.size()} bus listeners left`);

  const result: RunResult = {
    name,
    intents: work.length,
    wallets: walletCount,
    seconds: (t1 - t0) / 1000,
    completed: 0,
    failed: 0,
    latency: Array.from(finalAt, (f, n) => f - created[n]!),
    service: Array.from(finalAt, (f, n) => f - (planning[n] || created[n]!)),
    rss: mem,
    retainedKiBPerIntent: retained / work.length / 1024,
    loopDelayMaxMs: loop.max / 1e6,
    unexpected: [],
    failures: new Map(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    healthz,
    submitMs,
    loopDelayAfterSubmitMaxMs: loopAfter.max / 1e6,
    turnCpuBoundMaxMs: turnMax?.maxCpuBoundMs,
  };
  const stored = await Promise.all(ids.map((id) => env.store.intents.get(id)));
  check(
    stored.map((i, n) => {
      if (i === null) throw new Error(`intent ${ids[n]} missing from the store`);
      return i;
    }),
    work.map((w) => w.req),
    result,
  );
  checkLedger(env);
  return result;
}

/** Baseline: the same intents, one at a time, through advance() with commit = transition() only. */
async function runBare(name: string, walletCount: number): Promise<RunResult> {
  const env = await setup(walletCount, 'microtask');
  const clock = createSystemClock();
  const signers = new Map<string, LocalAccount>();
  const walletById = new Map<string, Wallet>();
  for (const w of env.wallets) {
    signers.set(w.id, await env.keyVault.signer(w.id));
    walletById.set(w.id, (await env.store.wallets.getById(w.id))!);
  }
  const signal = new AbortController().signal;
  const work = workload(env);
  const latency: number[] = [];
  const final: Intent[] = [];

  const heapBefore = heapAfterGc();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rss = new RssSampler(50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const [n, { walletId, req }] of work.entries()) {
    // the pipeline never leaves the microtask queue: let the RSS sampler in now and then
    if (n % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    let current = pendingIntent(walletId, req, clock.now().toISOString());
    const ctx: UnitContext = {
      chains: env.chain,
      keyVault: { signer: async (id) => signers.get(id)! },
      wallets: { getById: async (id) => walletById.get(id) ?? null },
      intents: { listByWallet: async () => [] },
      clock,
      retry: DEFAULT_RETRY,
      txStuckAfterMs: 60_000,
      signal,
      commit: async (event: IntentEvent) => (current = transition(current, event, clock.now())),
    };
    for (let units = 0; !isFinal(current.status); units++) {
      if (units > 100) throw new Error(`${current.id} did not finish in 100 units`);
      await advance(current, ctx);
    }
    latency.push(performance.now() - started);
    // only what check() reads is kept, so the baseline holds no store
    final.push({ ...current, results: undefined, executionPlan: current.executionPlan && { ...current.executionPlan, steps: [], reasoning: '' } });
  }
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const mem = rss.stop();
  loop.disable();
  const retained = heapAfterGc() - heapBefore;

  const result: RunResult = {
    name,
    intents: work.length,
    wallets: walletCount,
    seconds: (t1 - t0) / 1000,
    completed: 0,
    failed: 0,
    latency,
    service: latency,
    rss: mem,
    retainedKiBPerIntent: retained / work.length / 1024,
    loopDelayMaxMs: loop.max / 1e6,
    unexpected: [],
    failures: new Map(),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  check(
    final,
    work.map((w) => w.req),
    result,
  );
  checkLedger(env);
  return result;
}

const perSec = (r: RunResult): number => r.intents / r.seconds;

/** The run with the median throughput of several rounds (other processes share the 2 cores). */
function median(runs: RunResult[]): RunResult {
  return [...runs].sort((a, b) => perSec(a) - perSec(b))[Math.floor(runs.length / 2)]!;
}

async function main(): Promise<void> {
  // warm-up (JIT) on a small workload, not reported
  await runBare('warm-up', 50);
  await runEngine('warm-up', 50, { watchers: true });

  const small = Math.max(1, Math.round(WALLETS / 10));
  const cases: { key: string; name: string; run: () => Promise<RunResult> }[] = [
    { key: 'bare', name: 'bare pipeline (baseline)', run: () => runBare('bare pipeline (baseline)', WALLETS) },
    { key: 'small', name: 'engine', run: () => runEngine('engine', small, { watchers: false }) },
    { key: 'full', name: 'engine', run: () => runEngine('engine', WALLETS, { watchers: false, healthz: true }) },
    { key: 'watched', name: 'engine + 1 watcher per intent', run: () => runEngine('engine + 1 watcher per intent', WALLETS, { watchers: true }) },
  ].filter((c) => CASES.has(c.key));
  const results: RunResult[][] = cases.map(() => []);
  // rounds interleave the cases, so a burst of load from elsewhere does not land on one case only
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, k] of cases.entries()) {
      forceGc();
      const r = await k.run();
      if (r.completed + r.failed !== r.intents) throw new Error(`${r.name}: ${r.completed} completed + ${r.failed} failed ≠ ${r.intents}`);
      results[c]!.push(r);
      console.error(
        `round ${round + 1}/${ROUNDS} ${r.name} ${r.intents}: ${int(perSec(r))} intents/s, ${(r.cpuMs / r.intents).toFixed(3)} CPU ms/intent, max loop stall ${ms(r.loopDelayMaxMs)} ms, load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
  }
  const runs = results.map(median);
  const byKey = new Map(cases.map((c, n) => [c.key, runs[n]!]));
  const bare = byKey.get('bare');
  const oneTenth = byKey.get('small');
  const full = byKey.get('full');
  const watched = byKey.get('watched');

  console.log(
    `intents per wallet: ${SEQUENCE.length} (5 no-bridge lends, 2 single-bridge lends, 2 withdraws, 1 bridge); route fee ${FEE_BPS} bps; key provider ${KEY_PROVIDER}`,
  );
  console.log(
    `median of ${ROUNDS} rounds per row; load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    '| run | intents / wallets | intents/s | vs baseline | latency p50 / p99 ms | service p50 / p99 ms | peak RSS MiB (at start) | retained heap KiB/intent | max loop stall ms | completed / failed |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of runs) {
    const lat = summary(r.latency);
    const svc = summary(r.service);
    const vs = bare ? `${(perSec(r) / perSec(bare)).toFixed(3)}×` : '-';
    console.log(
      `| ${r.name} | ${int(r.intents)} / ${int(r.wallets)} | ${int(perSec(r))} | ${vs} | ${ms(lat.p50)} / ${ms(lat.p99)} | ${ms(svc.p50)} / ${ms(svc.p99)} | ${int(r.rss.peakMiB)} (${int(r.rss.startMiB)}) | ${r.retainedKiBPerIntent.toFixed(1)} | ${ms(r.loopDelayMaxMs)} | ${int(r.completed)} / ${int(r.failed)} |`,
    );
  }
  if (full && oneTenth)
    console.log(
      `scaling: engine at ${int(full.intents)} vs ${int(oneTenth.intents)} intents: ${(perSec(full) / perSec(oneTenth)).toFixed(3)}× the throughput (1.0 = linear)`,
    );
  if (full && watched) console.log(`watchers: ${(perSec(watched) / perSec(full)).toFixed(3)}× the throughput of the engine without them`);
  if (full && bare)
    console.log(
      `engine / baseline: ${((full.seconds * 1000) / full.intents).toFixed(3)} ms vs ${((bare.seconds * 1000) / bare.intents).toFixed(3)} ms of wall time per intent`,
    );
  console.log('');
  console.log('CPU time of the process per intent (load-independent; the throughput one core would give):');
  console.log('| run | intents / wallets | CPU ms / intent | intents per CPU-second | vs baseline |');
  console.log('|---|---|---|---|---|');
  for (const r of runs) {
    const per = r.cpuMs / r.intents;
    const vs = bare ? `${(bare.cpuMs / bare.intents / per).toFixed(3)}×` : '-';
    console.log(`| ${r.name} | ${int(r.intents)} / ${int(r.wallets)} | ${per.toFixed(3)} | ${int(1000 / per)} | ${vs} |`);
  }
  const probed = results[cases.findIndex((c) => c.key === 'full')] ?? [];
  if (probed.length > 0) {
    console.log('');
    console.log(
      `GET /healthz polled every 10 ms from a child process during the engine run of ${int(probed[0]!.intents)} intents (new connection per request):`,
    );
    console.log(
      '| round | answers | p50 ms | p99 ms | max ms | max loop stall ms | max loop stall after submission ms | longest turn after submission, CPU-bound ms | submission loop ms | intents/s |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const [n, r] of probed.entries()) {
      const h = summary(r.healthz ?? []);
      const mark = r === full ? ' (median)' : '';
      console.log(
        `| ${n + 1}${mark} | ${int(r.healthz?.length ?? 0)} | ${ms(h.p50)} | ${ms(h.p99)} | ${ms(h.max)} | ${ms(r.loopDelayMaxMs)} | ${ms(r.loopDelayAfterSubmitMaxMs ?? NaN)} | ${ms(r.turnCpuBoundMaxMs ?? NaN)} | ${ms(r.submitMs ?? NaN)} | ${int(perSec(r))} |`,
      );
    }
    const every = summary(probed.flatMap((r) => r.healthz ?? []));
    console.log(
      `| all rounds | ${int(probed.reduce((k, r) => k + (r.healthz?.length ?? 0), 0))} | ${ms(every.p50)} | ${ms(every.p99)} | ${ms(every.max)} | ${ms(Math.max(...probed.map((r) => r.loopDelayMaxMs)))} | ${ms(Math.max(...probed.map((r) => r.loopDelayAfterSubmitMaxMs ?? 0)))} | ${ms(Math.max(...probed.map((r) => r.turnCpuBoundMaxMs ?? 0)))} | - | - |`,
    );
  }
  for (const r of runs) {
    for (const line of r.unexpected) console.log(`unexpected (${r.name}): ${line}`);
    for (const [code, n] of r.failures) console.log(`failed (${r.name}): ${code} × ${n}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
