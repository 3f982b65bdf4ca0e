import type { Address } from 'viem';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { assertChainsUsable } from '../chainAccess';
import type { ChainName, LendingProtocol, TokenAsset } from '../../domain/chains';
import {
  BUCKET_MS,
  RATE_BUCKETS,
  YIELD_HISTORY_MAX_WINDOW_DAYS,
  YIELD_HISTORY_MAX_WINDOW_MS,
  type RateBucket,
  type RateSample,
} from '../../domain/rateHistory';
import { parseInput } from '../../domain/schemas/parse';
import { yieldHistoryQuerySchema, type YieldHistoryParams } from '../../domain/schemas/yieldHistory';
import { invalidRequest, type FieldIssue } from '../../domain/errors/request';

/** The window when neither `from` nor `to` says otherwise: the last 24 h. */
export const DEFAULT_HISTORY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The default bucket is the smallest making at most this many buckets of the window. */
export const TARGET_HISTORY_BUCKETS = 500;
/** A bucket asked for explicitly may make at most this many buckets (1m over 24 h). */
export const MAX_HISTORY_BUCKETS = 1_440;
/**
 * The window is read from the store two hours at a time (a bucket at a time
 * for wider buckets), yielding to the event loop between reads: one read and
 * its bucketing hold at most 120 samples a market, a few ms, where a day of
 * every market took 20–50 ms (four history reads at once held /healthz up to
 * 200 ms) and a 30-day read seconds. Reads are aligned on UTC multiples of
 * their span, which every bucket width divides or equals, so a bucket never
 * spans two reads.
 */
export const HISTORY_READ_SLICE_MS = 2 * 60 * 60 * 1000;

/** The span of one read for `bucket`: HISTORY_READ_SLICE_MS, or the bucket's width when wider (a day). */
export const readSliceMs = (bucket: RateBucket): number => Math.max(HISTORY_READ_SLICE_MS, BUCKET_MS[bucket]);

/** One bucket of a market's history: the samples taken in [start, end). */
export interface YieldHistoryBucket {
  start: string;
  end: string;
  /** Lowest, highest and mean supply APY of the bucket's samples, percent, 4 decimals. */
  min: number;
  max: number;
  mean: number;
  /** How many samples (one a minute at most) the bucket holds. */
  samples: number;
}

/** One market's history. */
export interface YieldHistorySeries {
  chain: ChainName;
  protocol: LendingProtocol;
  asset: TokenAsset;
  /** The market's token contract; absent on a series of samples recorded before samples named their token. */
  token?: Address;
  /** Oldest first; buckets without samples are left out. */
  buckets: YieldHistoryBucket[];
}

/** The answer of GET /v1/yields/history and GraphQL yieldHistory. */
export interface YieldHistory {
  from: string;
  to: string;
  bucket: RateBucket;
  series: YieldHistorySeries[];
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** The smallest bucket making at most TARGET_HISTORY_BUCKETS buckets of a window of `rangeMs`. */
export function defaultBucket(rangeMs: number): RateBucket {
  return RATE_BUCKETS.find((b) => Math.ceil(rangeMs / BUCKET_MS[b]) <= TARGET_HISTORY_BUCKETS) ?? '1d';
}

/** Samples (ordered by market and token, then time) into one series per market and token, bucketed on UTC multiples of the width. */
export function bucketize(samples: readonly RateSample[], bucket: RateBucket): YieldHistorySeries[] {
  const width = BUCKET_MS[bucket];
  const series: YieldHistorySeries[] = [];
  let current: YieldHistorySeries | undefined;
  let acc: { start: number; min: number; max: number; sum: number; n: number } | undefined;
  const flush = () => {
    if (!current || !acc) return;
    current.buckets.push({
      start: new Date(acc.start).toISOString(),
      end: new Date(acc.start + width).toISOString(),
      min: round4(acc.min),
      max: round4(acc.max),
      mean: round4(acc.sum / acc.n),
      samples: acc.n,
    });
    acc = undefined;
  };
  for (const s of samples) {
    if (!current || current.chain !== s.chain || current.protocol !== s.protocol || current.asset !== s.asset || current.token !== s.token) {
      flush();
      current = { chain: s.chain, protocol: s.protocol, asset: s.asset, ...(s.token !== undefined && { token: s.token }), buckets: [] };
      series.push(current);
    }
    const start = Math.floor(Date.parse(s.at) / width) * width;
    if (acc && acc.start !== start) flush();
    if (!acc) acc = { start, min: s.apy, max: s.apy, sum: 0, n: 0 };
    acc.min = Math.min(acc.min, s.apy);
    acc.max = Math.max(acc.max, s.apy);
    acc.sum += s.apy;
    acc.n += 1;
  }
  flush();
  return series;
}

/**
 * The APY history of the lending markets: the samples the
 * rate sampler stored, per market, in buckets with min, max and mean.
 * Filters are optional; the window defaults to the last 24 h and may span
 * YIELD_HISTORY_MAX_WINDOW_DAYS at most. Every bad parameter is named in one
 * 400 INVALID_REQUEST.
 */
export async function getYieldHistory(
  deps: Pick<AppDeps, 'store' | 'clock' | 'environment'>,
  principal: Principal,
  params: YieldHistoryParams,
): Promise<YieldHistory> {
  const q = parseInput(yieldHistoryQuerySchema, params);
  const chain = q.chain as ChainName | undefined;
  if (chain) assertChainsUsable(principal, [{ field: 'chain', chain }], deps.environment);
  const now = deps.clock.now().getTime();
  const to = q.to !== undefined ? Date.parse(q.to) : now;
  const from = q.from !== undefined ? Date.parse(q.from) : to - DEFAULT_HISTORY_WINDOW_MS;
  const issues: FieldIssue[] = [];
  if (from >= to) issues.push({ path: q.from !== undefined ? 'from' : 'to', message: 'from must be before to' });
  else if (to - from > YIELD_HISTORY_MAX_WINDOW_MS)
    issues.push({ path: 'from', message: `the window from → to may span at most ${YIELD_HISTORY_MAX_WINDOW_DAYS} days` });
  const bucket = q.bucket ?? defaultBucket(Math.max(1, to - from));
  if (q.bucket !== undefined && from < to && Math.ceil((to - from) / BUCKET_MS[bucket]) > MAX_HISTORY_BUCKETS) {
    issues.push({ path: 'bucket', message: `bucket ${bucket} makes more than ${MAX_HISTORY_BUCKETS} buckets of this window; choose a wider one` });
  }
  if (issues.length > 0) throw invalidRequest(issues);
  const filters = { chain, protocol: q.protocol, asset: q.asset as TokenAsset | undefined };
  const series = new Map<string, YieldHistorySeries>();
  const slice = readSliceMs(bucket);
  for (let start = from; start < to;) {
    const end = Math.min(to, (Math.floor(start / slice) + 1) * slice);
    if (start > from) await new Promise((resolve) => setImmediate(resolve));
    const samples = await deps.store.rateHistory.list({ ...filters, from: new Date(start).toISOString(), to: new Date(end).toISOString() });
    for (const s of bucketize(samples, bucket)) {
      const key = seriesKey(s);
      const seen = series.get(key);
      if (seen) seen.buckets.push(...s.buckets);
      else series.set(key, s);
    }
    start = end;
  }
  // the store's order: by chain, protocol, asset, then token (a series without one first)
  const ordered = [...series].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), bucket, series: ordered };
}

/** A series' market and token as one key that sorts as the store lists them. */
const seriesKey = (s: Pick<YieldHistorySeries, 'chain' | 'protocol' | 'asset' | 'token'>) =>
  `${s.chain}\u0000${s.protocol}\u0000${s.asset}\u0000${s.token ?? ''}`;
