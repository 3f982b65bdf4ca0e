/**
 * Blocks, transactions, gas and wall time per intent at the test networks'
 * pace: the service as `npm start` runs it, in this process, with
 * SANDBOX_TIMING=testnets (Sepolia 12 s blocks, Base Sepolia 2 s, Arbitrum
 * Sepolia 0.25 s; attestations after Circle's fast/standard delays per source
 * chain), SANDBOX_SPEED times faster (default 1: the real pace).
 *
 * Cases, run concurrently (one fresh wallet each, so a ×1 run takes about the
 * longest case, a standard transfer's ~13 min, not the sum):
 *  - a no-bridge lend on each of the three chains (25 USDC minted on the chain
 *    through POST /admin/sandbox/mint, lend 20 USDC with `chain` = that chain);
 *  - Sepolia → Base and Base → Arbitrum, fast and standard: 25 USDC minted on
 *    the source, lend 20 USDC with `chain` = the destination and `speed`.
 *
 * Per case: wall time (server clock, createdAt → completedAt); per chain, the
 * distinct blocks and distinct transaction hashes among the intent's
 * transactions (`results.transactions`, the mined hash of each) plus the gas
 * top-ups the gas tank sent the wallet (plain transfers gas tank → wallet,
 * found by scanning every block mined during the run, as
 * bench/intentRoundTrips.ts does); gas in units and USD: `results.totalGasUsed`
 * / `totalGasCostUsd` plus the top-ups' (their receipts' gas × price, priced at
 * the chain's ETH/USD feed, as the service prices its own).
 *
 * The account model is whatever the sandbox manifest says per chain
 * (SANDBOX_ACCOUNT_MODEL from the environment, when the service knows it);
 * the header prints it.
 *
 * Run: npx ts-node --transpile-only bench/blocksPerIntent.ts   (SANDBOX_SPEED=1, SANDBOX_ACCOUNT_MODEL=…)
 */
import { loadavg } from 'node:os';
import { formatEther, type Address, type Hex } from 'viem';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService, type RunningService } from '../src/service';
import { TEST_CHAINS, type ChainName } from '../src/domain/chains';
import { SANDBOX_ADDRESSES } from '../src/chain/sandbox/accounts';
import { sandboxPriceFeedAbi } from '../src/chain/sandbox/abis';
import { testnetPace } from '../src/chain/sandbox/timing';
import { assertDevnetsStopped, descendants } from './support/procStats';

const ADMIN_TOKEN = 'bench-admin-token-123456';
const SPEED = Number(process.env.SANDBOX_SPEED ?? 1);
const FUND_AMOUNT = '25';
const LEND_AMOUNT = '20';
/** The bench's poll of each intent (its wall time is the server's createdAt → completedAt, not this). */
const POLL_MS = 500;
/** A standard transfer takes ~13 min at ×1: give every case three times the slowest path. */
const FINAL_WITHIN_MS = (45 * 60_000) / SPEED;

interface Case {
  name: string;
  /** Where the funds sit. */
  from: ChainName;
  /** Where they are lent. */
  to: ChainName;
  speed?: 'fast' | 'standard';
  /** Measure the wallet's SECOND lend of the same route: delegated already on the 7702 path; holding the gas left by its first top-ups on the plain path. */
  repeat?: true;
}

const CASES: Case[] = [
  { name: 'no-bridge lend, Ethereum Sepolia', from: 'ethereum-sepolia', to: 'ethereum-sepolia' },
  { name: 'no-bridge lend, Base Sepolia', from: 'base-sepolia', to: 'base-sepolia' },
  { name: 'no-bridge lend, Arbitrum Sepolia', from: 'arbitrum-sepolia', to: 'arbitrum-sepolia' },
  { name: 'Sepolia → Base, fast', from: 'ethereum-sepolia', to: 'base-sepolia', speed: 'fast' },
  { name: 'Sepolia → Base, standard', from: 'ethereum-sepolia', to: 'base-sepolia', speed: 'standard' },
  { name: 'Base → Arbitrum, fast', from: 'base-sepolia', to: 'arbitrum-sepolia', speed: 'fast' },
  { name: 'Base → Arbitrum, standard', from: 'base-sepolia', to: 'arbitrum-sepolia', speed: 'standard' },
  { name: 'Sepolia → Base, fast, the wallet’s second', from: 'ethereum-sepolia', to: 'base-sepolia', speed: 'fast', repeat: true },
];

const SHORT: Record<string, string> = { 'ethereum-sepolia': 'Sep', 'base-sepolia': 'Base', 'arbitrum-sepolia': 'Arb' };

interface Json {
  [k: string]: unknown;
}
interface TxView {
  kind?: string;
  txHash: Hex;
  chain?: ChainName;
  status?: string;
}

interface Result {
  c: Case;
  wallet: Address;
  wallMs: number;
  /** A repeat case: each chain's block number before the measured lend (the first lend's top-ups are not its). */
  after?: Map<ChainName, bigint>;
  strategy: string;
  /** The protocol of the deposit step. */
  protocol: string;
  /** The intent's own transactions: kind@chain, in order. */
  txs: TxView[];
  gasUsed: bigint;
  gasUsd: number;
}

/** A transaction mined on a chain during the run: its block and gas. */
interface Mined {
  chain: ChainName;
  hash: Hex;
  block: bigint;
  gasUsed: bigint;
  costWei: bigint;
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
    async lend(walletId: string, c: Case): Promise<Json> {
      const body = { walletId, action: 'lend', amount: LEND_AMOUNT, asset: 'USDC', chain: c.to, ...(c.speed && { speed: c.speed }) };
      return ok(await call('POST', '/v1/intents', key, body), 201, `POST /v1/intents (${c.name})`);
    },
    async intent(id: string): Promise<Json> {
      return ok(await call('GET', `/v1/intents/${id}`, key), 200, `GET /v1/intents/${id}`);
    },
  };
}
type Api = ReturnType<typeof api>;

async function runCase(svc: RunningService, http: Api, c: Case, i: number): Promise<Result> {
  const w = await http.wallet(`blocks-${i}-${Date.now()}`);
  await http.mint(c.from, w.address, FUND_AMOUNT);
  let after: Map<ChainName, bigint> | undefined;
  if (c.repeat) {
    await finalOf(http, c, String((await http.lend(w.id, c)).id));
    await http.mint(c.from, w.address, FUND_AMOUNT);
    after = new Map();
    for (const ch of [c.from, c.to]) after.set(ch, await svc.chains.client(ch)!.client.getBlockNumber());
  }
  const final = await finalOf(http, c, String((await http.lend(w.id, c)).id));
  const plan = final.executionPlan as { strategy: string; steps: { type: string; protocol?: string }[] };
  const results = final.results as { transactions: TxView[]; totalGasUsed: string; totalGasCostUsd: number };
  return {
    c,
    wallet: w.address,
    wallMs: Date.parse(String(final.completedAt)) - Date.parse(String(final.createdAt)),
    ...(after && { after }),
    strategy: plan.strategy,
    protocol: plan.steps.find((s) => s.type === 'deposit')?.protocol ?? '—',
    txs: results.transactions,
    gasUsed: BigInt(results.totalGasUsed),
    gasUsd: results.totalGasCostUsd,
  };
}

/** Polls the intent until final; a case whose intent does not complete fails. */
async function finalOf(http: Api, c: Case, id: string): Promise<Json> {
  const deadline = Date.now() + FINAL_WITHIN_MS;
  for (;;) {
    const got = await http.intent(id);
    if (got.status === 'completed' || got.status === 'failed' || got.status === 'cancelled') {
      if (got.status !== 'completed') throw new Error(`${c.name}: intent ${String(got.status)}: ${JSON.stringify(got.error)}`);
      return got;
    }
    if (Date.now() > deadline) throw new Error(`${c.name}: intent ${id} not final after ${FINAL_WITHIN_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** Gas top-ups (plain transfers gas tank → one of `wallets`) mined on `chain` in blocks (after, upTo], by wallet. */
async function topUps(svc: RunningService, chain: ChainName, after: bigint, upTo: bigint, wallets: Set<string>): Promise<Map<string, Mined[]>> {
  const c = svc.chains.client(chain)!.client;
  const tank = SANDBOX_ADDRESSES.gasTank.toLowerCase();
  const out = new Map<string, Mined[]>();
  const blocks: bigint[] = [];
  for (let b = after + 1n; b <= upTo; b++) blocks.push(b);
  // a few blocks at a time: Arbitrum Sepolia mines thousands during a ×1 run, most of them empty
  for (let k = 0; k < blocks.length; k += 20) {
    const batch = await Promise.all(blocks.slice(k, k + 20).map((blockNumber) => c.getBlock({ blockNumber, includeTransactions: true })));
    for (const block of batch) {
      for (const tx of block.transactions) {
        const to = tx.to?.toLowerCase();
        if (tx.from.toLowerCase() !== tank || to === undefined || !wallets.has(to) || tx.input !== '0x') continue;
        const r = await c.getTransactionReceipt({ hash: tx.hash });
        const list = out.get(to) ?? [];
        list.push({ chain, hash: tx.hash, block: r.blockNumber, gasUsed: r.gasUsed, costWei: r.gasUsed * r.effectiveGasPrice });
        out.set(to, list);
      }
    }
  }
  return out;
}

async function minedTx(svc: RunningService, chain: ChainName, hash: Hex): Promise<Mined> {
  const r = await svc.chains.client(chain)!.client.getTransactionReceipt({ hash });
  return { chain, hash, block: r.blockNumber, gasUsed: r.gasUsed, costWei: r.gasUsed * r.effectiveGasPrice };
}

async function ethUsd(svc: RunningService, chain: ChainName): Promise<number> {
  const c = svc.chains.client(chain)!;
  const [, answer] = await c.client.readContract({ address: c.deployment.ethUsdFeed, abi: sandboxPriceFeedAbi, functionName: 'latestRoundData' });
  return Number(answer) / 1e8;
}

/** "Sep 2 · Base 3" for the chains with a count. */
const perChain = (counts: Map<ChainName, number>): string =>
  [...counts.entries()]
    .filter(([, n]) => n > 0)
    .map(([ch, n]) => `${SHORT[ch] ?? ch} ${n}`)
    .join(' · ') || '—';

async function main(): Promise<void> {
  console.log(`command: SANDBOX_SPEED=${SPEED} npx ts-node --transpile-only bench/blocksPerIntent.ts  (argv: ${process.argv.slice(1).join(' ')})`);
  console.log(
    `load average at start (1/5/15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const t0 = Date.now();
  const env: NodeJS.ProcessEnv = {
    PORT: '0',
    LOG_LEVEL: 'silent',
    DEV_PLAN: 'enterprise',
    ADMIN_TOKEN,
    SANDBOX_TIMING: 'testnets',
    SANDBOX_SPEED: String(SPEED),
    ...(process.env.SANDBOX_ACCOUNT_MODEL !== undefined && { SANDBOX_ACCOUNT_MODEL: process.env.SANDBOX_ACCOUNT_MODEL }),
  };
  const svc = await startService(loadConfig(env), createLogger('silent'));
  const nodes = descendants().map((p) => p.pid);
  const pace = testnetPace(TEST_CHAINS, SPEED);
  const chains = TEST_CHAINS.filter((ch) => svc.chains.client(ch) !== undefined);
  console.log(`start-up (devnets + deploy + server): ${Date.now() - t0} ms; speed ×${SPEED}`);
  for (const ch of chains) {
    // the manifest's account model (issue 44); absent: plain transactions with gas top-ups
    const model = (svc.chains.manifest.chains[ch] as { accountModel?: string } | undefined)?.accountModel ?? 'plain';
    const d = pace.attestationDelayMs[ch]!;
    console.log(
      `- ${ch}: account model ${model}; block time ${pace.blockTimeMs[ch]} ms; attestation from it: fast ${d.fast / 1000} s, standard ${d.standard / 1000} s`,
    );
  }
  console.log(`SANDBOX_ACCOUNT_MODEL=${process.env.SANDBOX_ACCOUNT_MODEL ?? '(unset)'}`);
  try {
    const http = api(svc);
    const before = new Map<ChainName, bigint>();
    for (const ch of chains) before.set(ch, await svc.chains.client(ch)!.client.getBlockNumber());
    const started = Date.now();
    const settled = await Promise.allSettled(CASES.map((c, i) => runCase(svc, http, c, i)));
    console.log(`all cases final after ${((Date.now() - started) / 1000).toFixed(1)} s (concurrently)`);
    const results = settled.flatMap((s, i) => {
      if (s.status === 'fulfilled') return [s.value];
      console.log(`- ${CASES[i]!.name} FAILED: ${s.reason instanceof Error ? s.reason.message : String(s.reason)}`);
      return [];
    });
    const wallets = new Set(results.map((r) => r.wallet.toLowerCase()));
    const tops = new Map<string, Mined[]>();
    for (const ch of chains) {
      const upTo = await svc.chains.client(ch)!.client.getBlockNumber();
      for (const [w, list] of await topUps(svc, ch, before.get(ch)!, upTo, wallets)) tops.set(w, [...(tops.get(w) ?? []), ...list]);
    }
    const prices = new Map<ChainName, number>();
    for (const ch of chains) prices.set(ch, await ethUsd(svc, ch));

    console.log(
      '\n| case | strategy | protocol | wall s (createdAt → completedAt) | blocks per chain (intent + top-ups) | tx hashes per chain (intent + top-ups) | of which top-ups | intent transactions | gas units (intent + top-ups) | gas USD (intent + top-ups) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      const own = await Promise.all(r.txs.filter((t) => t.chain !== undefined).map((t) => minedTx(svc, t.chain!, t.txHash)));
      const top = (tops.get(r.wallet.toLowerCase()) ?? []).filter((m) => r.after === undefined || m.block > (r.after.get(m.chain) ?? 0n));
      const all = [...own, ...top];
      const blocks = new Map<ChainName, number>();
      const hashes = new Map<ChainName, number>();
      for (const ch of chains) {
        const on = all.filter((m) => m.chain === ch);
        blocks.set(ch, new Set(on.map((m) => m.block)).size);
        hashes.set(ch, new Set(on.map((m) => m.hash.toLowerCase())).size);
      }
      const topCounts = new Map<ChainName, number>(chains.map((ch) => [ch, top.filter((m) => m.chain === ch).length]));
      const topGas = top.reduce((a, m) => a + m.gasUsed, 0n);
      const topUsd = top.reduce((a, m) => a + Number(formatEther(m.costWei)) * prices.get(m.chain)!, 0);
      const kinds = r.txs.map((t) => `${t.kind ?? '?'}@${SHORT[t.chain ?? ''] ?? t.chain}`).join(', ');
      console.log(
        `| ${r.c.name} | ${r.strategy} | ${r.protocol} | ${(r.wallMs / 1000).toFixed(1)} | ${perChain(blocks)} | ${perChain(hashes)} | ${perChain(topCounts)} | ${kinds} | ` +
          `${(r.gasUsed + topGas).toLocaleString('en-US')} (${r.gasUsed.toLocaleString('en-US')} + ${topGas.toLocaleString('en-US')}) | ` +
          `${(r.gasUsd + topUsd).toFixed(4)} (${r.gasUsd.toFixed(4)} + ${topUsd.toFixed(4)}) |`,
      );
    }
    console.log(
      `\nETH/USD at the sandbox feeds: ${[...prices.entries()].map(([ch, p]) => `${SHORT[ch] ?? ch} ${p}`).join(', ')}; wall time includes the attestation wait of bridges`,
    );
  } finally {
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
