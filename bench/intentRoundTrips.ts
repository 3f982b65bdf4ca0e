/**
 * Wall time of single intents against the sum of their transactions' round
 * trips, on the real sandbox devnets (the service as `npm start` runs it, in
 * this process: its 3 hardhat devnets, contracts deployed, in-memory store).
 *
 * Goal (product owner): intent wall time, less the wait for the CCTP attestation (shown apart), ≤ 1.5 × (sum of its
 * transactions' round trips) + 20 ms.
 *
 * Cases, each intent alone on an idle service, BENCH_N samples each (default 5),
 * medians reported; after BENCH_WARMUP (default 1) discarded warm-up rounds:
 *  - no-bridge: fresh wallet, 25 USDC minted on base-sepolia (POST /admin/sandbox/mint),
 *    lend 20 USDC → approve + supply on base-sepolia;
 *  - single-bridge: 25 USDC minted on arbitrum-sepolia → approve + burn on
 *    arbitrum-sepolia, mint on base-sepolia (relayer), approve + supply on base-sepolia.
 * The rounds interleave the cases (no-bridge, its replay, single-bridge, its replay, …),
 * so drift of the machine's load hits both alike.
 *
 * Intent wall time: server clock, createdAt → completedAt of GET /v1/intents/:id
 * (the figure judged against the goal), and observed: POST sent → final answer
 * seen by this client polling every 50 ms (adds up to one poll interval plus a GET).
 *
 * Round-trip baseline (same run, same devnets, right after each intent): every
 * transaction listed in the intent's `results.transactions` is replayed as the
 * SAME call (same kind, chain, contract, amount, encoded by the service's own
 * encodeTx: approve, supply, depositForBurn, receiveMessage with an attestation
 * of the replay's own burn) from a fresh bench account (random key, native
 * balance set with hardhat_setBalance, the same 25 USDC minted through the
 * admin route), so storage starts as it did for the intent's wallet. Each
 * replay is timed as the brief defines a round trip: sign + eth_sendRawTransaction
 * + waitForTransactionReceipt, on a public client from the service's own
 * createChainClients with the sandbox polling interval (50 ms, src/chain/startChains.ts).
 * The preparation the service also does per transaction (pending nonce, fee
 * estimate, gas estimate: one batched HTTP request) is timed apart and NOT in
 * the sum; it is printed. Sum per intent = sum over its listed transactions of
 * their replays' round trips; the table gives the median of those sums.
 *
 * Not in `results.transactions`, hence not in the sum, but on chain during the
 * intent: the gas top-ups the service sends a fresh wallet (gas tank → wallet)
 * before its first transaction on each chain. The bench counts them by scanning
 * the blocks mined during the intent, and replays a plain transfer per top-up to
 * show their cost. It also records, by wrapping the global fetch that viem's
 * http transport calls, every JSON-RPC HTTP request the service sends during
 * the intent (methods, count, time in flight) to show where the wall time goes.
 *
 * Run: npx ts-node --transpile-only bench/intentRoundTrips.ts   (BENCH_N=5 BENCH_WARMUP=1)
 */
import { toUnits } from '../src/domain/money';
import { loadavg } from 'node:os';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseEther, type Address, type Hex, type LocalAccount } from 'viem';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService, type RunningService } from '../src/service';
import type { ChainName } from '../src/domain/chains';
import type { Protocol, TxRequest } from '../src/ports/chain';
import { SANDBOX_ADDRESSES } from '../src/chain/sandbox/accounts';
import { ms, summary } from './support/benchStats';
import { assertDevnetsStopped, descendants } from './support/procStats';
import { RpcTrace, summarize } from './support/rpcTrace';
import { createReplayer, type Replayer, type TimedTx } from './support/txReplay';

const ADMIN_TOKEN = 'bench-admin-token-123456';
const N = Number(process.env.BENCH_N ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
/** The bench's own poll interval for the observed time. */
const POLL_MS = 50;
/** The service's receipt polling interval on the sandbox (src/chain/startChains.ts → createChainClients). */
const SERVICE_POLLING_MS = 50;
const FINAL_WITHIN_MS = 120_000;
const LEND_AMOUNT = '20';
/**
 * BENCH_READS_FIRST=1: the client reads the wallet's balances and the yields after funding it and before
 * lending, as an app shows them before its user lends (planning may then use those reads instead of the chains).
 */
const READS_FIRST = process.env.BENCH_READS_FIRST === '1';
const FUND_AMOUNT = '25';
/** The service tops wallets up with 0.003 ETH (src/chain/startChains.ts). */
const TOP_UP_WEI = parseEther('0.003');

type Kind = 'no-bridge' | 'single-bridge';
const KINDS: Kind[] = ['no-bridge', 'single-bridge'];
const FUNDING: Record<Kind, ChainName> = { 'no-bridge': 'base-sepolia', 'single-bridge': 'arbitrum-sepolia' };

interface Json {
  [k: string]: unknown;
}
interface TxView {
  type: string;
  kind?: string;
  txHash: string;
  chain?: ChainName;
  status?: string;
}
interface StepView {
  type: 'bridge' | 'deposit' | 'withdraw';
  chain: ChainName;
  from?: ChainName;
  to?: ChainName;
  protocol?: string;
  amountUnits: string;
  /** Bridge: the burn's maxFee (token units) and minFinalityThreshold. */
  maxFee?: string;
  minFinalityThreshold?: 1000 | 2000;
  startedAt?: string;
  completedAt?: string;
}

interface Sample {
  kind: Kind;
  serverMs: number;
  observedMs: number;
  /** createdAt → first step started (planning); last step completed → completedAt; ms. */
  planningMs: number;
  finishMs: number;
  /** Listed transactions, in sending order, as `kind@chain`. */
  txs: string[];
  replays: TimedTx[];
  sumRoundTripMs: number;
  sumPrepMs: number;
  topUps: { chain: ChainName; roundTripMs: number; prepMs: number }[];
  otherOnChain: number;
  rpc: ReturnType<typeof summarize>;
}

const sleep = (t: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, t));

function api(svc: RunningService) {
  const call = async (method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(svc.url + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  };
  // started in development: the generated development key is there
  const key = svc.devApiKey!;
  const ok = (r: { status: number; body: Json }, want: number, what: string): Json => {
    if (r.status !== want) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return {
    async wallet(userId: string): Promise<{ id: string; address: Address }> {
      const b = ok(await call('POST', '/v1/wallets', key, { userId }), 201, 'POST /v1/wallets');
      return { id: String(b.id), address: b.address as Address };
    },
    async mint(chain: ChainName, address: Address, amount: string): Promise<void> {
      ok(await call('POST', '/admin/sandbox/mint', ADMIN_TOKEN, { chain, asset: 'USDC', address, amount }), 200, `mint on ${chain}`);
    },
    async lend(walletId: string): Promise<Json> {
      return ok(await call('POST', '/v1/intents', key, { walletId, action: 'lend', amount: LEND_AMOUNT, asset: 'USDC' }), 201, 'POST /v1/intents');
    },
    async balancesAndYields(walletId: string): Promise<void> {
      ok(await call('GET', `/v1/balances/${walletId}`, key), 200, 'GET balances');
      ok(await call('GET', '/v1/yields', key), 200, 'GET yields');
    },
    async intent(id: string): Promise<Json> {
      return ok(await call('GET', `/v1/intents/${id}`, key), 200, `GET /v1/intents/${id}`);
    },
  };
}
type Api = ReturnType<typeof api>;

/** The chain-port request that replays listed transaction `t` of an intent whose plan has `steps`. */
async function replayRequest(t: TxView, steps: StepView[], burnHash: Hex | undefined, svc: RunningService): Promise<TxRequest> {
  const step = steps.find((s) => s.type === t.type);
  if (!step) throw new Error(`no ${t.type} step for ${t.kind}`);
  const amount = BigInt(step.amountUnits);
  if (step.type === 'bridge') {
    const from = step.from!;
    const to = step.to!;
    if (t.kind === 'approve') return { kind: 'approve', chain: from, asset: 'USDC', spender: 'bridge', amount };
    if (t.kind === 'burn')
      return {
        kind: 'burn',
        chain: from,
        toChain: to,
        amount,
        maxFee: toUnits(step.maxFee ?? '0', 'USDC'),
        minFinalityThreshold: step.minFinalityThreshold ?? 1000,
      };
    if (t.kind === 'mint') {
      if (!burnHash) throw new Error('mint replayed before its burn');
      const { message, attestation } = await svc.chains.port.attest(from, burnHash);
      return { kind: 'mint', chain: to, message, attestation };
    }
  }
  if (step.type === 'deposit') {
    const protocol = step.protocol as Protocol;
    if (t.kind === 'approve') return { kind: 'approve', chain: step.chain, asset: 'USDC', spender: protocol, amount };
    if (t.kind === 'supply') return { kind: 'supply', chain: step.chain, protocol, asset: 'USDC', amount };
  }
  throw new Error(`cannot replay ${t.kind} of a ${t.type} step`);
}

/** Transactions mined on `chain` in blocks (after, upTo]: gas top-ups to `wallet`, and the rest not sent by the wallet or the relayer. */
async function scanBlocks(
  replay: Replayer,
  chain: ChainName,
  after: bigint,
  upTo: bigint,
  wallet: Address,
): Promise<{ topUps: number; other: number; listed: number }> {
  const c = replay.client(chain).client;
  const tank = SANDBOX_ADDRESSES.gasTank.toLowerCase();
  const w = wallet.toLowerCase();
  let topUps = 0;
  let other = 0;
  let listed = 0;
  for (let b = after + 1n; b <= upTo; b++) {
    const block = await c.getBlock({ blockNumber: b, includeTransactions: true });
    for (const tx of block.transactions) {
      const from = tx.from.toLowerCase();
      if (from === tank && tx.to?.toLowerCase() === w && tx.input === '0x') topUps++;
      else if (from === w || from === tank) listed++;
      else other++;
    }
  }
  return { topUps, other, listed };
}

async function runCase(svc: RunningService, http: Api, replay: Replayer, trace: RpcTrace, kind: Kind, tag: string): Promise<Sample> {
  const funding = FUNDING[kind];
  const chains = [...replay.clients.keys()];
  const w = await http.wallet(`rt-${kind}-${tag}`);
  await http.mint(funding, w.address, FUND_AMOUNT);
  if (READS_FIRST) await http.balancesAndYields(w.id);
  const before = new Map<ChainName, bigint>();
  for (const ch of chains) before.set(ch, await replay.client(ch).client.getBlockNumber());

  // the intent, alone
  trace.start();
  const sent = performance.now();
  const created = await http.lend(w.id);
  const deadline = Date.now() + FINAL_WITHIN_MS;
  let final: Json;
  for (;;) {
    const i = await http.intent(String(created.id));
    if (i.status === 'completed' || i.status === 'failed') {
      final = i;
      break;
    }
    if (Date.now() > deadline) throw new Error(`intent ${String(created.id)} not final after ${FINAL_WITHIN_MS} ms`);
    await sleep(POLL_MS);
  }
  const observedMs = performance.now() - sent;
  const rpc = summarize(trace.stop());
  const plan = final.executionPlan as { strategy?: string; steps: StepView[] } | null;
  if (final.status !== 'completed') throw new Error(`${kind} intent failed: ${JSON.stringify(final.error)}`);
  if (plan?.strategy !== kind) throw new Error(`${kind} intent planned as ${plan?.strategy}`);
  const createdAt = Date.parse(String(final.createdAt));
  const completedAt = Date.parse(String(final.completedAt));
  const steps = plan.steps;
  const firstStart = Math.min(...steps.map((s) => Date.parse(String(s.startedAt))));
  const lastDone = Math.max(...steps.map((s) => Date.parse(String(s.completedAt))));
  const txs = ((final.results as { transactions?: TxView[] } | undefined)?.transactions ?? []) as TxView[];

  // what else was mined during the intent (one block per transaction on the automining devnets)
  const topUpChains: ChainName[] = [];
  let otherOnChain = 0;
  let listedOnChain = 0;
  for (const ch of chains) {
    const s = await scanBlocks(replay, ch, before.get(ch)!, await replay.client(ch).client.getBlockNumber(), w.address);
    for (let k = 0; k < s.topUps; k++) topUpChains.push(ch);
    otherOnChain += s.other;
    listedOnChain += s.listed;
  }
  if (listedOnChain !== txs.length) otherOnChain += listedOnChain - txs.length;

  // the baseline: the same transactions, sent directly
  const account: LocalAccount = privateKeyToAccount(generatePrivateKey());
  for (const ch of chains) await replay.setBalance(ch, account.address, parseEther('1'));
  await http.mint(funding, account.address, FUND_AMOUNT);
  const replays: TimedTx[] = [];
  let burnHash: Hex | undefined;
  for (const t of txs) {
    const request = await replayRequest(t, steps, burnHash, svc);
    if (request.chain !== t.chain) throw new Error(`replay of ${t.kind} on ${request.chain}, intent sent it on ${t.chain}`);
    const r = await replay.send(account, request);
    if (request.kind === 'burn') burnHash = r.txHash;
    replays.push(r);
  }
  const topUps = [];
  for (const ch of topUpChains) {
    const r = await replay.transfer(account, ch, privateKeyToAccount(generatePrivateKey()).address, TOP_UP_WEI);
    topUps.push({ chain: ch, roundTripMs: r.roundTripMs, prepMs: r.prepMs });
  }
  return {
    kind,
    serverMs: completedAt - createdAt,
    observedMs,
    planningMs: firstStart - createdAt,
    finishMs: completedAt - lastDone,
    txs: txs.map((t) => `${t.kind}@${t.chain}`),
    replays,
    sumRoundTripMs: replays.reduce((a, r) => a + r.roundTripMs, 0),
    sumPrepMs: replays.reduce((a, r) => a + r.prepMs, 0),
    topUps,
    otherOnChain,
    rpc,
  };
}

const p50 = (xs: number[]): number => summary(xs).p50;

function report(samples: Sample[]): void {
  console.log(
    '| case | intent p50 ms (server) | attestation wait p50 ms | wall less the attestation wait | observed p50 ms | sum of tx round trips ms | ratio (wall less attestation)/sum | goal (1.5×sum+20 ms) | met? |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const kind of KINDS) {
    const s = samples.filter((x) => x.kind === kind);
    const server = p50(s.map((x) => x.serverMs));
    const attestation = p50(s.map((x) => x.rpc.attestationMs));
    const overhead = p50(s.map((x) => x.serverMs - x.rpc.attestationMs));
    const observed = p50(s.map((x) => x.observedMs));
    const sum = p50(s.map((x) => x.sumRoundTripMs));
    const goal = 1.5 * sum + 20;
    console.log(
      `| ${kind} (${s[0]!.txs.length} tx, N=${s.length}) | ${ms(server)} | ${ms(attestation)} | ${ms(overhead)} | ${ms(observed)} | ${ms(sum)} | ${(overhead / sum).toFixed(2)}× | ${ms(goal)} | ${overhead <= goal ? 'yes' : 'no'} |`,
    );
  }

  console.log('\nPer transaction (replays, p50 ms): round trip = sign + send + receipt; prep = nonce + fees + gas estimate (not in the sum)');
  console.log('| case | transaction | round trip p50 | prep p50 |');
  console.log('|---|---|---|---|');
  for (const kind of KINDS) {
    const s = samples.filter((x) => x.kind === kind);
    s[0]!.txs.forEach((label, k) => {
      console.log(`| ${kind} | ${label} | ${ms(p50(s.map((x) => x.replays[k]!.roundTripMs)))} | ${ms(p50(s.map((x) => x.replays[k]!.prepMs)))} |`);
    });
    const tops = s.flatMap((x) => x.topUps);
    if (tops.length > 0) {
      console.log(
        `| ${kind} | gas top-up (plain transfer), ${(tops.length / s.length).toFixed(1)} per intent | ${ms(p50(tops.map((t) => t.roundTripMs)))} | ${ms(p50(tops.map((t) => t.prepMs)))} |`,
      );
    }
  }

  console.log("\nWhere the wall time goes (p50 over the samples, ms; RPC = the service's JSON-RPC HTTP requests during the intent)");
  console.log(
    '| case | server wall | Σ tx round trips | Σ tx prep | top-ups (count; replayed Σ rt+prep) | RPC requests | RPC in flight | outside RPC | planning (created → 1st step) | last step → completed |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const kind of KINDS) {
    const s = samples.filter((x) => x.kind === kind);
    const topCount = p50(s.map((x) => x.topUps.length));
    const topMs = p50(s.map((x) => x.topUps.reduce((a, t) => a + t.roundTripMs + t.prepMs, 0)));
    const finish = p50(s.map((x) => x.finishMs));
    console.log(
      `| ${kind} | ${ms(p50(s.map((x) => x.serverMs)))} | ${ms(p50(s.map((x) => x.sumRoundTripMs)))} | ${ms(p50(s.map((x) => x.sumPrepMs)))} | ${topCount}; ${ms(topMs)} | ` +
        `${p50(s.map((x) => x.rpc.requests))} | ${ms(p50(s.map((x) => x.rpc.inFlightMs)))} | ${ms(p50(s.map((x) => x.serverMs - x.rpc.inFlightMs)))} | ${ms(p50(s.map((x) => x.planningMs)))} | ${ms(finish)} |`,
    );
  }
  const other = samples.reduce((a, x) => a + x.otherOnChain, 0);
  if (other !== 0) console.log(`note: ${other} transaction(s) mined during the intents were neither listed nor top-ups`);

  console.log('\nService JSON-RPC requests per intent by method (mean count, mean summed ms; a batch is labelled with all its methods)');
  for (const kind of KINDS) {
    const s = samples.filter((x) => x.kind === kind);
    const agg = new Map<string, { count: number; ms: number }>();
    for (const x of s) {
      for (const [label, e] of x.rpc.byLabel) {
        const a = agg.get(label) ?? { count: 0, ms: 0 };
        a.count += e.count;
        a.ms += e.ms;
        agg.set(label, a);
      }
    }
    const parts = [...agg.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([label, e]) => `${label} ×${(e.count / s.length).toFixed(1)} ${(e.ms / s.length).toFixed(1)} ms`);
    console.log(`- ${kind}: ${parts.join('; ')}`);
  }
}

async function main(): Promise<void> {
  console.log(
    `command: ${process.env.BENCH_N ? `BENCH_N=${N} ` : ''}npx ts-node --transpile-only bench/intentRoundTrips.ts  (argv: ${process.argv.slice(1).join(' ')})`,
  );
  console.log(
    `load average at start (1/5/15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const t0 = Date.now();
  const trace = new RpcTrace();
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DEV_PLAN: 'enterprise', ADMIN_TOKEN }), createLogger('silent'));
  const nodes = descendants().map((p) => p.pid);
  console.log(
    `start-up (devnets + deploy + server): ${Date.now() - t0} ms; N=${N} per case after ${WARMUP} warm-up round(s); balances and yields read before lending: ${READS_FIRST ? 'yes' : 'no'}`,
  );
  const deployments = Object.values(svc.chains.manifest.chains).filter((d) => d !== undefined);
  trace.watch(
    deployments.map((d) => d.rpcUrl),
    svc.chains.manifest.attestationApi ?? undefined,
  );
  try {
    const http = api(svc);
    const replay = createReplayer(svc.chains.manifest, SERVICE_POLLING_MS);
    const samples: Sample[] = [];
    for (let round = 0; round < WARMUP + N; round++) {
      for (const kind of KINDS) {
        const s = await runCase(svc, http, replay, trace, kind, String(round));
        if (round >= WARMUP) samples.push(s);
      }
    }
    report(samples);
  } finally {
    trace.uninstall();
    await svc.stop();
  }
  console.log(
    `load average at end (1/5/15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  assertDevnetsStopped(nodes);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
