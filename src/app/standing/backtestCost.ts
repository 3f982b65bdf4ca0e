import { CREDIT_COST } from '../../domain/plans';
import type { ChainName, TokenAsset } from '../../domain/chains';
import type { RateHistoryRepo } from '../../ports/store';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What one credit of a backtest buys: this many market-days of replay (a market's samples over one day). */
export const MARKET_DAYS_PER_CREDIT = 10;

/**
 * The credits of a backtest of `days` (the window, rounded up to whole days)
 * over `markets` markets: one per MARKET_DAYS_PER_CREDIT market-days, never
 * less than the operation's base price (CREDIT_COST, 5), which thus covers a
 * small window (e.g. 12 days of 4 markets). 90 days of 4 markets: 36.
 */
export function backtestCredits(days: number, markets: number): number {
  return Math.max(CREDIT_COST.simulateStandingIntent, Math.ceil((days * markets) / MARKET_DAYS_PER_CREDIT));
}

/** The window's length in days, a started day counting whole. */
export const windowDays = (fromMs: number, toMs: number): number => Math.max(1, Math.ceil((toMs - fromMs) / DAY_MS));

/**
 * The markets a backtest of `asset` over [fromMs, toMs) prices: those
 * recorded in the window's first hour or its last (two small reads, before
 * any replay; the sampler records every market each minute, so these are
 * the markets of the whole window unless one appeared or vanished in it), on
 * the chains the asker may use; at least 1.
 */
export async function marketsToPrice(
  rateHistory: Pick<RateHistoryRepo, 'list'>,
  window: { asset: TokenAsset; fromMs: number; toMs: number },
  usable: (chain: ChainName) => boolean,
): Promise<number> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const { asset, fromMs, toMs } = window;
  const [head, tail] = await Promise.all([
    rateHistory.list({ asset, from: iso(fromMs), to: iso(Math.min(toMs, fromMs + HOUR_MS)) }),
    rateHistory.list({ asset, from: iso(Math.max(fromMs, toMs - HOUR_MS)), to: iso(toMs) }),
  ]);
  const markets = new Set<string>();
  for (const s of [...head, ...tail]) if (usable(s.chain)) markets.add(`${s.chain}/${s.protocol}`);
  return Math.max(1, markets.size);
}
