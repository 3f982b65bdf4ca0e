import { ADMIN_TOKEN, type HttpAnswer, type Json, type TestServer } from './server';

/**
 * Helpers for standing intents over real HTTP on sandbox devnets: samples on
 * demand (POST /admin/sandbox/sample) filed under minutes the test chooses,
 * rates set on chain, wallets funded with the admin mint, decisions, intents
 * and positions read back through /v1.
 */

const MINUTE_MS = 60_000;
const POLL_MS = 100;

/** `what` failed: the answer in the message (a helper's setup step is not what a test asserts). */
function expectOk(a: HttpAnswer, status: number, what: string): Json {
  if (a.status !== status) throw new Error(`${what}: expected ${status}, got ${a.status} ${a.text}`);
  return a.body;
}

/**
 * The sample minutes a suite files its samples under: whole minutes in the
 * past (a sample may not be filed in the future), one after another, with
 * `scenario()` leaping more than the hour a decision looks back for its
 * previous sample, so one scenario's rates are never another's "previous".
 */
export function sampleMinutes(startHoursAgo = 20) {
  let cursor = Math.floor((Date.now() - startHoursAgo * 3_600_000) / MINUTE_MS) * MINUTE_MS;
  return {
    /** The next minute, as an ISO instant. */
    next(): string {
      cursor += MINUTE_MS;
      if (cursor > Date.now()) throw new Error('the scenario ran out of past minutes');
      return new Date(cursor).toISOString();
    },
    /** Leaps two hours: the next minute has no previous sample. */
    scenario(): void {
      cursor += 2 * 3_600_000;
    },
  };
}

export interface StandingApi {
  /** A fresh wallet of the key's account: its id and address. */
  wallet(prefix: string): Promise<{ id: string; address: string }>;
  mint(chain: string, address: string, amount: string): Promise<void>;
  /** Sets a USDC market's APY on chain. */
  setRate(chain: string, protocol: string, apy: number): Promise<void>;
  /** Every USDC market's APY now (GET /v1/yields). */
  usdcRates(): Promise<{ chain: string; protocol: string; apy: number }[]>;
  /** A rate sample filed under `at`, answered once its decisions are made. */
  sample(at: string, on?: TestServer): Promise<Json>;
  createStanding(body: Record<string, unknown>): Promise<Json>;
  /** The standing intent's decisions, newest first (every page). */
  decisions(standingIntentId: string): Promise<Json[]>;
  /** The decision recorded for `sampleAt` (the test knows there is one). */
  decisionAt(standingIntentId: string, sampleAt: string): Promise<Json>;
  pause(standingIntentId: string): Promise<void>;
  /** Polls GET /v1/intents/:id until it is completed, failed or cancelled. */
  waitFinal(intentId: string, withinMs?: number): Promise<Json>;
  /** Where the wallet's USDC is: idle per chain and lent per market, smallest units, empty places left out. */
  usdcHoldings(walletId: string): Promise<Record<string, bigint>>;
}

export function standingApi(srv: TestServer, key: string): StandingApi {
  let seq = 0;
  const api: StandingApi = {
    async wallet(prefix) {
      const userId = `${prefix}-${Date.now().toString(36)}-${(seq++).toString(36)}`;
      const w = expectOk(await srv.rest('POST', '/v1/wallets', { key, body: { userId } }), 201, 'POST /v1/wallets');
      return { id: w.id, address: w.address };
    },
    async mint(chain, address, amount) {
      expectOk(await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain, asset: 'USDC', address, amount } }), 200, 'mint');
    },
    async setRate(chain, protocol, apy) {
      const body = { chain, protocol, asset: 'USDC', apy };
      expectOk(await srv.rest('POST', '/admin/sandbox/rates', { key: ADMIN_TOKEN, body }), 200, `set ${chain} ${protocol} USDC to ${apy} %`);
    },
    async usdcRates() {
      const y = expectOk(await srv.rest('GET', '/v1/yields?asset=USDC', { key }), 200, 'GET /v1/yields');
      return (y.rates as Json[]).map((m) => ({ chain: m.chain, protocol: m.protocol, apy: m.apy }));
    },
    async sample(at, on = srv) {
      return expectOk(await on.rest('POST', '/admin/sandbox/sample', { key: ADMIN_TOKEN, body: { at } }), 200, `sample at ${at}`);
    },
    async createStanding(body) {
      return expectOk(await srv.rest('POST', '/v1/standing-intents', { key, body: { asset: 'USDC', ...body } }), 201, 'POST /v1/standing-intents');
    },
    async decisions(id) {
      const out: Json[] = [];
      let after: string | null = null;
      do {
        const q: string = after ? `?first=100&after=${encodeURIComponent(after)}` : '?first=100';
        const page = expectOk(await srv.rest('GET', `/v1/standing-intents/${id}/decisions${q}`, { key }), 200, 'GET decisions');
        out.push(...page.decisions);
        after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      } while (after);
      return out;
    },
    async decisionAt(id, sampleAt) {
      const found = (await api.decisions(id)).filter((d) => d.sampleAt === sampleAt);
      if (found.length !== 1) throw new Error(`expected one decision at ${sampleAt}, found ${found.length}`);
      return found[0];
    },
    async pause(id) {
      expectOk(await srv.rest('POST', `/v1/standing-intents/${id}/pause`, { key }), 200, 'pause');
    },
    async waitFinal(intentId, withinMs = 60_000) {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const i = expectOk(await srv.rest('GET', `/v1/intents/${intentId}`, { key }), 200, `GET /v1/intents/${intentId}`);
        if (['completed', 'failed', 'cancelled'].includes(i.status)) return i;
        if (Date.now() > deadline) throw new Error(`intent ${intentId} not final after ${withinMs} ms: ${JSON.stringify(i)}`);
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    },
    async usdcHoldings(walletId) {
      const report = expectOk(await srv.rest('GET', `/v1/balances/${walletId}`, { key }), 200, 'GET /v1/balances');
      const out: Record<string, bigint> = {};
      for (const c of report.chains as Json[]) {
        for (const t of c.tokens as Json[]) if (t.asset === 'USDC' && BigInt(t.balance) > 0n) out[`${c.chain}/idle`] = BigInt(t.balance);
        for (const p of c.positions as Json[]) if (p.asset === 'USDC' && BigInt(p.balance) > 0n) out[`${c.chain}/${p.protocol}`] = BigInt(p.balance);
      }
      return out;
    },
  };
  return api;
}

/** A market as decisions and the backtest name it: `chain/protocol`. */
export const marketOf = (m: { chain: string; protocol: string | null }) => `${m.chain}/${m.protocol ?? 'idle'}`;
