import { builder } from '../builder';
import { ChainEnum, LendingProtocolEnum, TokenAssetEnum } from './enums';
import { getYieldHistory, MAX_HISTORY_BUCKETS, type YieldHistory, type YieldHistoryBucket, type YieldHistorySeries } from '../../app/yields/getYieldHistory';
import type { RateBucket } from '../../domain/rateHistory';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';

/**
 * Query.yieldHistory: the same use-case and answer as
 * GET /v1/yields/history — each market's sampled supply APY in buckets with
 * min, max and mean.
 */

const BUCKET_NAMES: Record<RateBucket, { name: string; description: string }> = {
  '1m': { name: 'MINUTE', description: 'One minute (REST "1m"): every sample on its own.' },
  '5m': { name: 'FIVE_MINUTES', description: 'Five minutes (REST "5m").' },
  '1h': { name: 'HOUR', description: 'One hour (REST "1h").' },
  '1d': { name: 'DAY', description: 'One day, UTC (REST "1d").' },
};

const YieldHistoryBucketWidthEnum = builder.enumType('YieldHistoryBucketWidth', {
  description: 'The width of the buckets of an APY history.',
  values: Object.fromEntries(
    (Object.entries(BUCKET_NAMES) as [RateBucket, { name: string; description: string }][]).map(([value, v]) => [
      v.name,
      { value, description: v.description },
    ]),
  ) as Record<string, { value: RateBucket; description: string }>,
});

const YieldHistoryBucketRef = builder.objectRef<YieldHistoryBucket>('YieldHistoryBucket').implement({
  description: "One bucket of a market's APY history: the samples taken in [start, end).",
  fields: (t) => ({
    start: t.expose('start', { type: 'DateTime', description: 'Start of the bucket (inclusive), on a UTC multiple of its width.' }),
    end: t.expose('end', { type: 'DateTime', description: 'End of the bucket (exclusive).' }),
    min: t.exposeFloat('min', { description: 'Lowest supply APY sampled in the bucket, percent.' }),
    max: t.exposeFloat('max', { description: 'Highest supply APY sampled in the bucket, percent.' }),
    mean: t.exposeFloat('mean', { description: 'Mean supply APY of the samples in the bucket, percent (4 decimals).' }),
    samples: t.exposeInt('samples', { description: 'How many samples the bucket holds (one per minute at most).' }),
  }),
});

const YieldHistorySeriesRef = builder.objectRef<YieldHistorySeries>('YieldHistorySeries').implement({
  description: "One market's APY history.",
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain of the market.', resolve: (s) => s.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the market.', resolve: (s) => s.protocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset supplied.', resolve: (s) => s.asset }),
    buckets: t.field({ type: [YieldHistoryBucketRef], description: 'Oldest first; buckets without samples are left out.', resolve: (s) => s.buckets }),
  }),
});

const YieldHistoryRef = builder.objectRef<YieldHistory>('YieldHistory').implement({
  description: 'Sampled supply APYs of the lending markets, bucketed with min, max and mean (same resource as GET /v1/yields/history).',
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime', description: 'Start of the window (inclusive).' }),
    to: t.expose('to', { type: 'DateTime', description: 'End of the window (exclusive).' }),
    bucket: t.field({
      type: YieldHistoryBucketWidthEnum,
      description: 'The width of the buckets (the one asked for, or the default for the window).',
      resolve: (h) => h.bucket,
    }),
    series: t.field({
      type: [YieldHistorySeriesRef],
      description: 'One series per market with samples in the window, by chain, protocol and asset.',
      resolve: (h) => h.series,
    }),
  }),
});

builder.queryField('yieldHistory', (t) =>
  t.field({
    type: YieldHistoryRef,
    nullable: true,
    description:
      "Each lending market's supply APY as the service sampled it (every minute by default, kept 90 days), in buckets with min, max and mean (same as GET /v1/yields/history); null with its error when refused (INVALID_REQUEST naming each bad argument, PLAN_RESTRICTED).",
    args: {
      chain: t.arg({ type: ChainEnum, description: 'Only markets on this chain.' }),
      protocol: t.arg({ type: LendingProtocolEnum, description: 'Only markets of this lending protocol.' }),
      asset: t.arg({ type: TokenAssetEnum, description: 'Only markets of this asset.' }),
      from: t.arg({ type: 'DateTime', description: 'Start of the window (inclusive); default 24 h before `to`; at most 30 days before `to`.' }),
      to: t.arg({ type: 'DateTime', description: 'End of the window (exclusive); default now.' }),
      bucket: t.arg({
        type: YieldHistoryBucketWidthEnum,
        description: `Bucket width; by default the smallest making at most 500 buckets of the window; one asked for may make at most ${MAX_HISTORY_BUCKETS}.`,
      }),
    },
    admission: 'getYieldHistory',
    resolve: (_root, args, ctx) => getYieldHistory(ctx.deps, requirePrincipal(ctx), withoutNulls(args)),
  }),
);
