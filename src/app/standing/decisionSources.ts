import type { ChainHoldings } from '../../ports/chain';
import type { RateHistoryRepo, Store } from '../../ports/store';
import type { TokenAsset } from '../../domain/chains';
import type { Holding } from '../../domain/standingIntent';
import { NON_FINAL_STATUSES } from '../../domain/intent';
import type { RateSample } from '../../domain/rateHistory';

/** How far back the previous sample of a market is looked for. */
export const PREVIOUS_SAMPLE_WINDOW_MS = 60 * 60_000;

/** Where the wallet's `asset` is: idle on a chain (protocol null) or lent in a market; empty places left out. */
export function holdingsOf(holdings: readonly ChainHoldings[], asset: TokenAsset): Holding[] {
  const out: Holding[] = [];
  for (const h of holdings) {
    for (const t of h.tokens) if (t.asset === asset && t.balance > 0n) out.push({ chain: h.chain, protocol: null, amount: t.balance });
    for (const p of h.positions) if (p.asset === asset && p.amount > 0n) out.push({ chain: h.chain, protocol: p.protocol, amount: p.amount });
  }
  return out;
}

/** A market's identity in a sample: everything but the time and the rate (so a field added to the key counts too). */
function marketKey(s: RateSample): string {
  const { at, apy, ...market } = s;
  void at;
  void apy;
  return JSON.stringify(market);
}

/** Each market's latest sample of `asset` before `at` (within PREVIOUS_SAMPLE_WINDOW_MS): the previous sample a decision compares with. */
export async function previousSamples(rateHistory: Pick<RateHistoryRepo, 'list'>, asset: TokenAsset, at: string): Promise<RateSample[]> {
  const to = Date.parse(at);
  const samples = await rateHistory.list({ asset, from: new Date(to - PREVIOUS_SAMPLE_WINDOW_MS).toISOString(), to: at });
  const latest = new Map<string, RateSample>();
  for (const s of samples) {
    const key = marketKey(s);
    const seen = latest.get(key);
    if (!seen || seen.at < s.at) latest.set(key, s);
  }
  return [...latest.values()];
}

/** Whether the wallet has an intent not yet completed, failed or cancelled (a move waits for it). */
export async function hasOpenIntent(store: Pick<Store, 'intents'>, walletId: string): Promise<boolean> {
  const open = await Promise.all(NON_FINAL_STATUSES.map((status) => store.intents.listByWallet(walletId, { status, limit: 1 })));
  return open.some((page) => page.length > 0);
}
