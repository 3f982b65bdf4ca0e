/**
 * Scale-out: several engines (service instances) on one store and one set of
 * devnets, as test/integration/engine/scaleOut.suite.ts builds them (own chain
 * port, key vault and change-feed bus per engine; leases, the nonce allocator
 * and the intents' change feed shared through one memory store).
 *
 * 1. Throughput with 1, 2 and 3 engines (fresh engines and a fresh store per
 *    round, same devnets): W wallets (BENCH_WALLETS, default 60) funded with
 *    4 USDC on arbitrum-sepolia before the timed part, then 2 lends per wallet
 *    (1 USDC on arbitrum-sepolia: no bridge; 2 USDC on base-sepolia: one
 *    bridge) submitted all at once, round-robin over the engines, and the
 *    store polled until every one is final. Two spreads: per intent, as the
 *    test does (a wallet's two intents land on different engines, so with 2
 *    or 3 engines they run side by side instead of one after the other), and
 *    per wallet (both on one engine: the same work as with one engine).
 *    Baseline: 1 engine in the same run. Latency is the intent's own
 *    createdAt → completedAt (or last update); throughput is intents over
 *    first submit → last final.
 * 2. Takeover: 3 engines, lease period 15 000 ms (the default) and 3 000 ms,
 *    and 3 000 ms again with the allocator's nonce gap wait cut from 5 000 to
 *    1 000 ms (to tell the lease's share of the delay from the allocator's).
 *    BENCH_TAKEOVER_INTENTS (default 30) intents to engine A, as many to B and
 *    C (one per wallet, half of them needing a bridge); once 5 of A's intents
 *    are executing with a transaction recorded, A is killed (its store and
 *    chain views frozen). Measured from the kill: the first and the last of
 *    A's unfinished intents leased by another engine, and the last of them
 *    final. The bound by design is 5/6 of the period (LEASE_SHARE in
 *    src/engine/leaseKeeper.ts: leases are written for 2/3 of it, expired
 *    ones looked for every 1/6). Transactions signed twice: per wallet and
 *    chain, the on-chain nonce against the wallet transactions its intents
 *    recorded.
 *
 * Both parts run BENCH_ROUNDS times (default 2). Every row also counts the
 * shared nonce allocator's answers: nonces taken (of them, the shared
 * signers': gas tank / relayer and faucet), handed out above the chain's
 * pending nonce (the transaction then waits for another engine's lower ones),
 * and re-synchronised over a gap (a nonce taken and never sent). Failures,
 * nonce retries and double signatures are counted and printed; nothing is
 * asserted on timing (the bench only gives up on an intent not final in 5 min).
 *
 * Caveat: the engines share this one process and the machine's 2 cores with
 * the 3 hardhat nodes, which mine each chain's transactions one at a time
 * (automine): the figures show what the coordination (leases, the shared
 * nonce allocator, the change feed) costs or allows, not CPU scaling across
 * machines.
 *
 * Run: npx ts-node --transpile-only bench/scaleOut.ts
 */
import { loadavg } from 'node:os';
import { isFinal, type Intent } from '../src/domain/intent';
import { int, pct } from './support/benchStats';
import { assertDevnetsStopped, descendants, totals } from './support/procStats';
import {
  createCluster,
  duplicateRecords,
  finalAt,
  latencyMs,
  startDevnets,
  unrecordedTransactions,
  type Cluster,
  type Devnets,
  type Instance,
  type NonceStats,
} from './support/scaleOutEngines';
import { isSubTxRecord } from '../src/domain/txRecords';

const WALLETS = Number(process.env.BENCH_WALLETS ?? 60);
const TAKEOVER_INTENTS = Number(process.env.BENCH_TAKEOVER_INTENTS ?? 30);
/** The whole throughput sequence (1, 2, 3 engines, both spreads), then the takeover runs, this many times. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ENGINES = [1, 2, 3] as const;
/**
 * Lease period and nonce gap wait (the chain port's default 5 000 ms) of each takeover run: the default lease, a short
 * one, and the short one with a short gap wait, which shows how much of the tail after a takeover is the allocator
 * waiting out the nonces the killed engine took and never sent.
 */
const TAKEOVER_RUNS = [
  [15_000, 5_000],
  [3_000, 5_000],
  [3_000, 1_000],
] as const;
/** A's intents executing with a transaction recorded before it is killed. */
const KILL_AFTER_EXECUTING = 5;
/** Every intent must be final within this long, or the bench fails. */
const FINAL_WITHIN_MS = 300_000;
/** The takeover bound by design: leases written for 2/3 of the period, expired ones looked for every 1/6. */
const BOUND_SHARE = 2 / 3 + 1 / 6;

type Spread = 'intent' | 'wallet';

const sleep = (msToWait: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, msToWait));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const s2 = (n: number): string => n.toFixed(2);
const since = (before: NonceStats, now: NonceStats): NonceStats => ({
  taken: now.taken - before.taken,
  shared: now.shared - before.shared,
  waited: now.waited - before.waited,
  resynced: now.resynced - before.resynced,
  sharedResynced: now.sharedResynced - before.sharedResynced,
});
/** "taken (of shared signers) / waited / re-synced (of shared signers)". */
const nonceCell = (x: NonceStats): string => `${x.taken} (${x.shared}) / ${x.waited} / ${x.resynced} (${x.sharedResynced})`;

interface Round {
  round: number;
  engines: number;
  spread: Spread;
  intents: number;
  completed: number;
  failed: string[];
  windowMs: number;
  p50: number;
  p95: number;
  nonceRetries: number;
  nonces: NonceStats;
  /** CPU of this process / of the devnet processes over the window, 100 % = one core. */
  cpuPct: number;
  nodesCpuPct: number;
}

/** Starts `n` engines on a fresh store, funds the wallets, then runs and times 2 lends per wallet. */
async function throughputRound(devnets: Devnets, nodes: readonly number[], round: number, n: number, spread: Spread): Promise<Round> {
  const cluster = createCluster(devnets);
  try {
    const engines: Instance[] = [];
    for (let k = 0; k < n; k++) engines.push(await cluster.startInstance(`n${k + 1}`));
    const wallets = await Promise.all(Array.from({ length: WALLETS }, () => cluster.fundedWallet('arbitrum-sepolia', '4')));
    const retries0 = cluster.nonceRetries;
    const nonces0 = { ...cluster.nonceStats };
    const cpu0 = process.cpuUsage();
    const nodesCpu0 = totals(nodes).cpuMs;
    const t0 = Date.now();
    const pick = (w: number, second: number): Instance => engines[(spread === 'intent' ? 2 * w + second : w) % n]!;
    const submitted = await Promise.all(
      wallets.flatMap((w, k) => [
        cluster.submit(pick(k, 0), w.id, { amount: '1', chain: 'arbitrum-sepolia' }),
        cluster.submit(pick(k, 1), w.id, { amount: '2', chain: 'base-sepolia' }),
      ]),
    );
    const done = await cluster.allFinal(
      submitted.map((i) => i.id),
      FINAL_WITHIN_MS,
    );
    const windowMs = Math.max(...done.map(finalAt)) - t0;
    const cpu = process.cpuUsage(cpu0);
    const nodesCpuMs = totals(nodes).cpuMs - nodesCpu0;
    const wallMs = Date.now() - t0;
    const lat = done.map(latencyMs).sort((a, b) => a - b);
    const failed = done.filter((i) => i.status !== 'completed').map((i) => `${i.status}${i.error ? `: ${i.error.code} ${i.error.message}` : ''}`);
    return {
      round,
      engines: n,
      spread,
      intents: done.length,
      completed: done.length - failed.length,
      failed,
      windowMs,
      p50: pct(lat, 50),
      p95: pct(lat, 95),
      nonceRetries: cluster.nonceRetries - retries0,
      nonces: since(nonces0, cluster.nonceStats),
      cpuPct: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
      nodesCpuPct: (nodesCpuMs / wallMs) * 100,
    };
  } finally {
    await cluster.stop();
  }
}

interface Takeover {
  leaseMs: number;
  nonceGapMs: number;
  /** A's intents not final when it was killed, by status. */
  unfinished: number;
  atKill: string;
  /** A's last lease renewal, ms before the kill. */
  renewedBeforeKillMs: number;
  firstTakeoverMs: number;
  lastTakeoverMs: number;
  allDoneMs: number;
  /** Per intent of A's unfinished: taken over → final, ms. */
  afterTakeover: { p50: number; max: number };
  /** B's and C's intents final after the kill: created → final, ms. */
  othersAfterKill: { count: number; max: number };
  nonces: NonceStats;
  intents: number;
  completed: number;
  failed: string[];
  signedTwice: number;
  missing: number;
  duplicateRecords: number;
  walletTxs: { onChain: number; recorded: number };
  nonceRetries: number;
}

/** Whether A's intent is executing with a sub-transaction recorded. */
const executingWithTx = (i: Intent | null): boolean => i?.status === 'executing' && (i.results?.transactions ?? []).some(isSubTxRecord);

async function takeoverRun(devnets: Devnets, leaseMs: number, nonceGapMs: number): Promise<Takeover> {
  const cluster: Cluster = createCluster(devnets, { leaseMs, nonceGapMs });
  try {
    const [a, b, c] = [await cluster.startInstance('a'), await cluster.startInstance('b'), await cluster.startInstance('c')];
    const wallets = await Promise.all(Array.from({ length: 2 * TAKEOVER_INTENTS }, () => cluster.fundedWallet('arbitrum-sepolia', '4')));
    const retries0 = cluster.nonceRetries;
    const nonces0 = { ...cluster.nonceStats };
    // one intent per wallet, so A's intents run side by side; every other one needs a bridge
    const submitted = await Promise.all(
      wallets.map((w, k) =>
        cluster.submit(
          k < TAKEOVER_INTENTS ? a : k % 2 === 0 ? b : c,
          w.id,
          k % 2 === 0 ? { amount: '2', chain: 'arbitrum-sepolia' } : { amount: '2', chain: 'base-sepolia' },
        ),
      ),
    );
    const ofA = submitted.slice(0, TAKEOVER_INTENTS).map((i) => i.id);
    for (let executing = 0, most = 0; executing < KILL_AFTER_EXECUTING; await sleep(5)) {
      const now = await Promise.all(ofA.map((id) => cluster.store.intents.get(id)));
      executing = now.filter(executingWithTx).length;
      most = Math.max(most, executing);
      if (now.every((i) => i !== null && isFinal(i.status)))
        throw new Error(`every intent of A was final before ${KILL_AFTER_EXECUTING} of them were seen executing at once (at most ${most})`);
    }
    const killAt = Date.now();
    a.kill();
    await sleep(0);
    const renewedBeforeKillMs = killAt - (cluster.lastRenewal.get(a.owner) ?? NaN);
    const atKill = (await Promise.all(ofA.map((id) => cluster.store.intents.get(id)))).filter((i): i is Intent => i !== null && !isFinal(i.status));
    const unfinished = new Set(atKill.map((i) => i.id));
    const byStatus = new Map<string, number>();
    for (const i of atKill) byStatus.set(i.status, (byStatus.get(i.status) ?? 0) + 1);

    const done = await cluster.allFinal(
      submitted.map((i) => i.id),
      FINAL_WITHIN_MS,
    );
    // the first lease another engine got on each of A's unfinished intents
    const takenAt = new Map<string, number>();
    for (const g of cluster.grants)
      if (unfinished.has(g.intentId) && g.owner !== a.owner && g.at >= killAt && !takenAt.has(g.intentId)) takenAt.set(g.intentId, g.at);
    if (takenAt.size !== unfinished.size) throw new Error(`${unfinished.size - takenAt.size} of A's unfinished intents were never leased by another engine`);
    const taken = [...takenAt.values()];
    const finalOfA = done.filter((i) => unfinished.has(i.id));
    const tail = finalOfA.map((i) => finalAt(i) - takenAt.get(i.id)!).sort((x, y) => x - y);
    const others = done
      .slice(TAKEOVER_INTENTS)
      .filter((i) => finalAt(i) > killAt)
      .map(latencyMs)
      .sort((x, y) => x - y);
    const failed = done.filter((i) => i.status !== 'completed').map((i) => `${i.status}${i.error ? `: ${i.error.code} ${i.error.message}` : ''}`);
    const chain = await unrecordedTransactions(devnets, wallets, done);
    return {
      leaseMs,
      unfinished: unfinished.size,
      atKill: [...byStatus].map(([s, k]) => `${k} ${s}`).join(', '),
      renewedBeforeKillMs,
      firstTakeoverMs: Math.min(...taken) - killAt,
      lastTakeoverMs: Math.max(...taken) - killAt,
      allDoneMs: Math.max(...finalOfA.map(finalAt)) - killAt,
      afterTakeover: { p50: pct(tail, 50), max: tail.at(-1) ?? NaN },
      othersAfterKill: { count: others.length, max: others.at(-1) ?? NaN },
      nonces: since(nonces0, cluster.nonceStats),
      nonceGapMs,
      intents: done.length,
      completed: done.length - failed.length,
      failed,
      signedTwice: chain.extra,
      missing: chain.missing,
      duplicateRecords: done.reduce((n, i) => n + duplicateRecords(i), 0),
      walletTxs: { onChain: chain.onChain, recorded: chain.recorded },
      nonceRetries: cluster.nonceRetries - retries0,
    };
  } finally {
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  console.log(`load average at start: ${load()}`);
  const t0 = Date.now();
  const devnets = await startDevnets();
  // the devnet nodes, to measure their CPU and to prove they are gone at the end
  const nodes = descendants().map((p) => p.pid);
  console.log(`devnets started and contracts deployed in ${int(Date.now() - t0)} ms (${nodes.length} processes)`);
  try {
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const spread of ['intent', 'wallet'] as const) {
        for (const n of ENGINES) {
          const round = await throughputRound(devnets, nodes, r + 1, n, spread);
          rounds.push(round);
          console.log(
            `round ${r + 1}, ${n} engine(s), spread per ${spread}: ${round.completed}/${round.intents} completed in ${int(round.windowMs)} ms; load average ${load()}`,
          );
        }
      }
    }

    console.log('');
    console.log(`Throughput: ${WALLETS} wallets × 2 lends (1 no-bridge, 1 single-bridge), all submitted at once, round-robin over the engines`);
    console.log(
      '| round | engines | spread | intents | completed / failed | first submit → last final s | intents/s | vs 1 engine | latency p50 ms | latency p95 ms | nonce retries | nonces taken (shared) / waited / re-synced (shared) | CPU bench / devnets |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const x of rounds) {
      const base = rounds.find((y) => y.round === x.round && y.spread === x.spread && y.engines === 1)!;
      const rate = x.intents / (x.windowMs / 1000);
      const baseRate = base.intents / (base.windowMs / 1000);
      console.log(
        `| ${x.round} | ${x.engines} | per ${x.spread} | ${x.intents} | ${x.completed} / ${x.failed.length} | ${s2(x.windowMs / 1000)} | ${s2(rate)} | ${s2(rate / baseRate)}× | ${int(x.p50)} | ${int(x.p95)} | ${x.nonceRetries} | ${nonceCell(x.nonces)} | ${int(x.cpuPct)}% / ${int(x.nodesCpuPct)}% |`,
      );
    }
    for (const x of rounds) for (const f of x.failed) console.log(`failed (${x.engines} engines, per ${x.spread}): ${f}`);

    const takeovers: (Takeover & { round: number })[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const [leaseMs, nonceGapMs] of TAKEOVER_RUNS) {
        const t = { ...(await takeoverRun(devnets, leaseMs, nonceGapMs)), round: r + 1 };
        takeovers.push(t);
        console.log(
          `round ${r + 1}, takeover, lease ${int(leaseMs)} ms, nonce gap ${int(nonceGapMs)} ms: A killed with ${t.unfinished} unfinished (${t.atKill}); its last renewal ${int(t.renewedBeforeKillMs)} ms before; load average ${load()}`,
        );
      }
    }
    console.log('');
    console.log(
      `Takeover: 3 engines, ${TAKEOVER_INTENTS} intents on A (killed once ${KILL_AFTER_EXECUTING} are executing with a transaction recorded) and ${TAKEOVER_INTENTS} on B and C`,
    );
    console.log(
      '| round | lease period ms | nonce gap wait ms | bound (5/6 of the lease) ms | A unfinished at kill | first taken over ms | last taken over ms | all of A final ms | taken over → final p50 / max ms | completed / failed | wallet txs on chain / recorded | signed twice | nonce retries | nonces taken (shared) / waited / re-synced (shared) | B and C intents final after the kill (max created → final ms) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const t of takeovers) {
      console.log(
        `| ${t.round} | ${int(t.leaseMs)} | ${int(t.nonceGapMs)} | ${int(t.leaseMs * BOUND_SHARE)} | ${t.unfinished} | ${int(t.firstTakeoverMs)} | ${int(t.lastTakeoverMs)} | ${int(t.allDoneMs)} | ${int(t.afterTakeover.p50)} / ${int(t.afterTakeover.max)} | ${t.completed} / ${t.failed.length} | ${t.walletTxs.onChain} / ${t.walletTxs.recorded} | ${t.signedTwice + t.duplicateRecords} | ${t.nonceRetries} | ${nonceCell(t.nonces)} | ${t.othersAfterKill.count === 0 ? '0' : `${t.othersAfterKill.count} (${int(t.othersAfterKill.max)})`} |`,
      );
      for (const f of t.failed) console.log(`failed (lease ${t.leaseMs} ms): ${f}`);
      if (t.missing > 0) console.log(`lease ${t.leaseMs} ms: ${t.missing} recorded wallet transactions are not on chain`);
    }
    console.log('');
    console.log(
      'Caveat: the engines share this one process and the 2 cores with the 3 hardhat nodes, which mine each chain’s transactions one at a time (automine):' +
        ' the figures show what the coordination (leases, shared nonce allocator, change feed) costs or allows, not CPU scaling across machines.',
    );
    console.log(`load average at the end: ${load()}`);
  } finally {
    await devnets.stop();
  }
  assertDevnetsStopped(nodes);
}

main().then(
  // The killed engines are left as they were: their actors' timers (idle wallets, stuck-transaction checks) may hold the event loop, so exit explicitly.
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
