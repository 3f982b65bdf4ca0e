import type { Address } from 'viem';
import type { ChainName, LendingProtocol, TokenAsset } from './chains';

/**
 * APY history: one sample per market per minute, kept
 * RATE_HISTORY_RETENTION_DAYS (a TTL index on MongoDB; the memory adapter
 * drops older samples), served as buckets with min, max and mean, and
 * replayed by the standing intents' backtest (hence 90 days: a quarter of
 * rates to test a rule on).
 */
export const RATE_HISTORY_RETENTION_DAYS = 90;
export const RATE_HISTORY_RETENTION_MS = RATE_HISTORY_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/**
 * The widest window the yield history answers: samples are kept longer (for
 * the backtest), but a chart of the market rates reads a month at most.
 */
export const YIELD_HISTORY_MAX_WINDOW_DAYS = 30;
export const YIELD_HISTORY_MAX_WINDOW_MS = YIELD_HISTORY_MAX_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/** The instant before which samples are gone. */
export function rateHistoryCutoff(now: Date): Date {
  return new Date(now.getTime() - RATE_HISTORY_RETENTION_MS);
}

/** One market's supply APY at one sample minute. */
export interface RateSample {
  chain: ChainName;
  protocol: LendingProtocol;
  asset: TokenAsset;
  /**
   * The market's token contract (a symbol is not an identity: a redeployed
   * or replaced token is another market). Absent on samples recorded before
   * samples named their token; those stay readable, as a market of their own.
   */
  token?: Address;
  /** The sample minute: an ISO 8601 UTC instant on a whole minute (the idempotency key with the market). */
  at: string;
  /** Supply APY in percent (4.2 = 4.2 %), as read from the chain. */
  apy: number;
}

/** The whole minute `d` falls in, as the key samples are stored under. */
export function sampleMinute(d: Date): string {
  return new Date(Math.floor(d.getTime() / 60_000) * 60_000).toISOString();
}

/** Bucket widths a history can be asked in. */
export const RATE_BUCKETS = ['1m', '5m', '1h', '1d'] as const;
export type RateBucket = (typeof RATE_BUCKETS)[number];
export const BUCKET_MS: Record<RateBucket, number> = { '1m': 60_000, '5m': 300_000, '1h': 3_600_000, '1d': 86_400_000 };
