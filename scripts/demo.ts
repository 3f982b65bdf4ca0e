/**
 * `npm run demo`: the service end to end in a terminal, through the SDK.
 *
 * Starts the sandbox service in-process (its own devnets, or the ones named by
 * SANDBOX_MANIFEST), or attaches to a running one when DEMO_URL is set
 * (DEMO_API_KEY: an API key of it, e.g. the ready line's development key;
 * DEMO_ADMIN_TOKEN: its ADMIN_TOKEN, optional). Then: creates a wallet, funds
 * it (sandbox admin mint on a chain other than the best market, or
 * POST /v1/demo/fund when attached without an admin token), shows yields and
 * balances as tables, lends across chains with a live display of every step
 * (bridge burn → attestation → mint → deposit, hashes and gas in USD) driven by
 * the `intentUpdated` subscription (the SDK's watch), and ends with the
 * position and its APY.
 *
 * On a terminal the steps are one block redrawn in place; anywhere else
 * (CI, a pipe) every change is one plain line, no cursor movement, no colour.
 *
 * DEMO_AMOUNT: the USDC to lend (default 0.5).
 */
import { randomBytes } from 'node:crypto';
import { createClient, type ServiceClient, type WatchedIntent, WalletOverviewDocument, isServiceApiError } from '../sdk/src';

const TTY = process.stdout.isTTY === true;
const COLOR = TTY && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
const AMOUNT = process.env.DEMO_AMOUNT ?? '0.5';

const paint = (code: number) => (s: string) => (COLOR ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = paint(1);
const dim = paint(2);
const green = paint(32);
const red = paint(31);
const cyan = paint(36);

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** GraphQL spells chains and protocols as enum values: BASE_SEPOLIA → base-sepolia, AAVE_V3 → aave-v3. */
const restName = (v: string | null | undefined): string => (v ?? '?').toLowerCase().replace(/_/g, '-');
const usd = (n: number | null | undefined): string => (n === null || n === undefined ? '' : `$${n < 0.01 && n > 0 ? n.toFixed(4) : n.toFixed(2)}`);
const shortHash = (h: string | null | undefined): string => (h ? `${h.slice(0, 10)}…${h.slice(-6)}` : '');

/** A plain table: a header row, aligned columns, two spaces apart. */
function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  return [bold(line(headers)), ...rows.map(line)];
}

interface Target {
  client: ServiceClient;
  url: string;
  adminToken: string | undefined;
  where: string;
  stop(): Promise<void>;
}

/** The service: attached to DEMO_URL, or started here with its sandbox devnets. */
async function connect(): Promise<Target> {
  const url = process.env.DEMO_URL;
  if (url !== undefined && url !== '') {
    const apiKey = process.env.DEMO_API_KEY;
    if (!apiKey) throw new Error('DEMO_URL is set: set DEMO_API_KEY too (an API key of that service, e.g. the development key of its ready line)');
    return {
      client: createClient({ baseUrl: url, apiKey }),
      url,
      adminToken: process.env.DEMO_ADMIN_TOKEN || undefined,
      where: `attached to ${url}`,
      stop: async () => {},
    };
  }
  // Loaded only here: attaching needs none of the service's code.
  const { loadConfig } = await import('../src/config');
  const { createLogger } = await import('../src/logger');
  const { startService } = await import('../src/service');
  const adminToken = randomBytes(24).toString('hex');
  const env: Record<string, string> = { PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: adminToken, DASHBOARD: 'off' };
  if (process.env.SANDBOX_MANIFEST) {
    env.SANDBOX_MANIFEST = process.env.SANDBOX_MANIFEST;
    // attached devnets need a configured master key; the demo's wallets are throwaway, so a fresh one serves unless one is given
    env.KEY_VAULT_MASTER_KEY = process.env.KEY_VAULT_MASTER_KEY || randomBytes(32).toString('hex');
  }
  const started = Date.now();
  const svc = await startService(loadConfig(env), createLogger('silent'));
  const chains = Object.values(svc.chains.manifest.chains).map((c) => `${c!.chain} (${c!.chainId})`);
  const how = env.SANDBOX_MANIFEST ? 'on the devnets of SANDBOX_MANIFEST' : `with its own devnets: ${chains.join(', ')}`;
  return {
    client: createClient({ baseUrl: svc.url, apiKey: svc.devApiKey }),
    url: svc.url,
    adminToken,
    where: `in-process sandbox at ${svc.url} ${how}, started in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    stop: () => svc.stop(),
  };
}

async function admin(t: Target, path: string, body: unknown): Promise<unknown> {
  const r = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * The live display of an intent's steps, from its subscription snapshots. A
 * row per step and per thing that happens in it (each transaction, and a
 * bridge's attestation between its burn and its mint). On a terminal the block
 * is redrawn in place; elsewhere a row is printed each time its text changes.
 */
class Progress {
  private printed = new Map<string, string>();
  private drawn = 0;

  update(intent: WatchedIntent): void {
    const rows = this.rows(intent);
    if (TTY) {
      // back to the top of the block, clear it, draw it again
      // (each row cut to the terminal's width: a wrapped row would throw the count of lines to go back off)
      if (this.drawn > 0) process.stdout.write(`\x1b[${this.drawn}F\x1b[J`);
      for (const [, text] of rows) say(fit(text, (process.stdout.columns || 80) - 1));
      this.drawn = rows.length;
      return;
    }
    for (const [key, text] of rows) {
      if (this.printed.get(key) === text) continue;
      this.printed.set(key, text);
      say(text);
    }
  }

  private rows(intent: WatchedIntent): [string, string][] {
    const rows: [string, string][] = [];
    const status: [string, string] = [`intent`, `intent ${intent.id}: ${statusText(intent.status)}`];
    const plan = intent.executionPlan;
    if (plan === null) return [status];
    rows.push(['plan', `plan: ${restName(plan.strategy)}, ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}: ${dim(plan.reasoning)}`]);
    const txs = intent.results?.transactions ?? [];
    const used = new Set<number>();
    for (const step of plan.steps) {
      const n = `${step.index + 1}/${plan.steps.length}`;
      const gas = step.gasCostUsd !== null ? `  gas ${usd(step.gasCostUsd)}` : '';
      const trouble = step.lastError ? `  ${red(`retrying (${step.lastError.code}, attempt ${step.attempts ?? '?'})`)}` : '';
      let title: string;
      let mine: (t: (typeof txs)[number]) => boolean;
      if (step.__typename === 'BridgeStep') {
        title = `bridge ${step.amount} USDC ${restName(step.from)} → ${restName(step.to)}`;
        mine = (t) => t.type === 'BRIDGE' && (t.kind === 'MINT' ? t.chain === step.to : t.chain === step.from);
      } else {
        const verb = step.__typename === 'DepositStep' ? 'deposit' : 'withdraw';
        title = `${verb} ${step.amount} ${step.asset} ${restName(step.chain)} ${restName(step.protocol)}`;
        mine = (t) => t.type === (step.__typename === 'DepositStep' ? 'DEPOSIT' : 'WITHDRAW') && t.chain === step.chain;
      }
      rows.push([`step${step.index}`, `[step ${n}] ${title}: ${statusText(step.status)}${gas}${trouble}`]);
      const label = step.__typename === 'BridgeStep' ? 'bridge' : step.__typename === 'DepositStep' ? 'deposit' : 'withdraw';
      txs.forEach((t, i) => {
        if (used.has(i) || !mine(t)) return;
        used.add(i);
        const kind = restName(t.kind).padEnd(11);
        const state = restName(t.status ?? 'signed');
        const txGas = t.gasCostUsd !== null ? `  gas ${usd(t.gasCostUsd)}` : '';
        // a terminal gets short hashes, so that a row fits its width; plain output keeps them whole
        rows.push([
          `tx${t.txHash}`,
          `    ${label} · ${kind} ${restName(t.chain).padEnd(16)} ${state.padEnd(9)} ${TTY ? shortHash(t.txHash) : t.txHash}${txGas}`,
        ]);
        if (t.kind === 'BURN' && t.status === 'CONFIRMED') {
          const minted = txs.some((m) => m.kind === 'MINT' && m.chain === (step.__typename === 'BridgeStep' ? step.to : null));
          rows.push([
            `att${t.txHash}`,
            `    ${label} · ${'attestation'.padEnd(11)} ${minted ? `received for burn ${shortHash(t.txHash)}` : `waiting for the attestation of burn ${shortHash(t.txHash)}`}`,
          ]);
        }
      });
    }
    rows.push(status);
    return rows;
  }
}

/** `text` cut to `width` visible characters (escape sequences kept, not counted). */
function fit(text: string, width: number): string {
  let out = '';
  let visible = 0;
  for (let i = 0; i < text.length; i++) {
    const esc = text[i] === '\x1b' ? /^\[[0-9;]*[A-Za-z]/.exec(text.slice(i + 1)) : null;
    if (esc) {
      out += `\x1b${esc[0]}`;
      i += esc[0].length;
      continue;
    }
    if (visible === width - 1 && text.length - i > 1) return `${out}…${COLOR ? '\x1b[0m' : ''}`;
    out += text[i];
    visible++;
  }
  return out;
}

function statusText(status: string): string {
  const s = status.toLowerCase();
  return s === 'completed' ? green(s) : s === 'failed' ? red(s) : cyan(s);
}

async function main(): Promise<number> {
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort(new Error('interrupted')));
  say(bold('Wallet intent service: demo through @wallet-intent-service/sdk'));
  const t = await connect();
  const { client } = t;
  try {
    say(`service: ${t.where}`);

    const wallet = await client.wallets.create({ userId: `demo-${randomBytes(4).toString('hex')}`, metadata: { source: 'npm run demo' } });
    say(`wallet created: ${wallet.id} for user ${wallet.userId}, address ${wallet.address}, chains ${wallet.chains.join(', ')}`);

    const yields = await client.yields.get({ asset: 'USDC' });
    const best = yields.best;
    if (best === null) throw new Error('no USDC market answered');
    say();
    say(bold('Yields (USDC), GET /v1/yields'));
    const byApy = [...yields.rates].sort((a, b) => b.apy - a.apy);
    for (const line of table(
      ['chain', 'protocol', 'asset', 'APY'],
      byApy.map((r) => [r.chain, r.protocol, r.asset, `${r.apy.toFixed(2)}%${r.chain === best.chain && r.protocol === best.protocol ? '  ← best' : ''}`]),
    ))
      say(line);
    say(`best: ${best.chain}/${best.protocol} at ${best.apy.toFixed(2)}%`);

    // Funds on another chain than the best market, so that the lend bridges.
    say();
    let fundedOn: string;
    if (t.adminToken !== undefined) {
      fundedOn = wallet.chains.find((c) => c !== best.chain && c === 'arbitrum-sepolia') ?? wallet.chains.find((c) => c !== best.chain)!;
      await admin(t, '/admin/sandbox/mint', { chain: fundedOn, asset: 'USDC', address: wallet.address, amount: '5' });
      say(`funded: 5 USDC minted to the wallet on ${fundedOn} (sandbox admin mint)`);
    } else {
      const receipt = await client.wallets.fundDemo(wallet.id);
      fundedOn = receipt.chain;
      say(`funded: ${receipt.amount} ${receipt.asset} sent on ${receipt.chain} (POST /v1/demo/fund), tx ${receipt.txHash}`);
    }
    let balances = await client.balances.get(wallet.id);
    for (let i = 0; i < 60 && balances.totalValueUsd === 0; i++) {
      await new Promise((r) => setTimeout(r, 500));
      balances = await client.balances.get(wallet.id);
    }
    say();
    say(bold('Balances, GET /v1/balances/:walletId'));
    const holdings = balances.chains.flatMap((c) => [
      ...c.tokens.map((x) => [c.chain, x.asset, '', x.balanceFormatted, usd(x.valueUsd)]),
      ...c.positions.map((x) => [c.chain, x.asset, x.protocol, x.balanceFormatted, usd(x.valueUsd)]),
    ]);
    for (const line of table(['chain', 'asset', 'position', 'balance', 'USD'], holdings)) say(line);
    say(`total: ${usd(balances.totalValueUsd)}`);

    say();
    const target = best.chain;
    say(bold(`Lend ${AMOUNT} USDC on ${target} (the best market) with funds on ${fundedOn}`));
    const created = await client.intents.create({ walletId: wallet.id, action: 'lend', amount: AMOUNT, chain: target });
    say(`intent created: ${created.id} (POST /v1/intents, ${created.status}); following it over the intentUpdated subscription`);
    const startedAt = Date.now();
    const progress = new Progress();
    let last: WatchedIntent | undefined;
    for await (const intent of client.intents.watch(created.id, { signal: abort.signal })) {
      progress.update(intent);
      last = intent;
    }
    if (last === undefined) throw new Error('the subscription sent nothing');
    // the live block cut the plan's reasoning to the terminal's width: here it is whole
    if (TTY && last.executionPlan) say(dim(`reasoning: ${last.executionPlan.reasoning}`));
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    if (last.status !== 'COMPLETED') {
      say(red(`intent ${last.id} failed after ${seconds} s: ${last.error?.code ?? '?'} ${last.error?.message ?? ''}`));
      return 1;
    }
    const r = last.results!;
    say(
      `intent ${last.id} completed in ${seconds} s: ${r.completedSteps} steps, ${r.transactions.length} transactions, gas ${r.totalGasUsed} (${usd(r.totalGasCostUsd)}), ${r.finalAmount} USDC in place`,
    );

    // The ending, in one GraphQL round trip typed by codegen: the wallet, its positions and the yields.
    const overview = await client.graphql.request(WalletOverviewDocument, { walletId: wallet.id, asset: 'USDC' });
    say();
    say(bold('Position, GraphQL WalletOverview'));
    const rates = overview.yields?.rates ?? [];
    const positions = (overview.balances?.chains ?? []).flatMap((c) =>
      c.positions.map((p) => {
        const rate = rates.find((x) => x.chain === c.chain && x.protocol === p.protocol && x.asset === p.asset);
        return { chain: restName(c.chain), protocol: restName(p.protocol), asset: p.asset, balance: p.balanceFormatted, usd: p.valueUsd, apy: rate?.apy };
      }),
    );
    for (const line of table(
      ['chain', 'protocol', 'asset', 'balance', 'USD', 'APY'],
      positions.map((p) => [p.chain, p.protocol, p.asset, p.balance, usd(p.usd), p.apy === undefined ? '' : `${p.apy.toFixed(2)}%`]),
    ))
      say(line);
    const deposit = last.executionPlan?.steps.find((s) => s.__typename === 'DepositStep');
    const where = deposit && deposit.__typename === 'DepositStep' ? `${restName(deposit.protocol)} on ${restName(deposit.chain)}` : target;
    say(green(`position: ${r.finalAmount} USDC in ${where} at ${r.apy.toFixed(2)}% APY`));
    return 0;
  } finally {
    await client.close();
    await t.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const what = isServiceApiError(err)
      ? `${err.status} ${err.code}: ${err.message}${err.requestId ? ` (request ${err.requestId})` : ''}`
      : err instanceof Error
        ? err.message
        : String(err);
    console.error(red(`demo failed: ${what}`));
    process.exit(1);
  },
);
