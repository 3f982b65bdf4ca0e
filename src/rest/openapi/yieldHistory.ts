import { z } from './zod';
import { CHAIN_NAMES, LENDING_PROTOCOLS, TOKEN_ASSETS } from '../../domain/chains';
import { RATE_BUCKETS } from '../../domain/rateHistory';
import type { YieldHistory } from '../../app/yields/getYieldHistory';
import { PROTOCOL_A } from './examples';

/**
 * The answer of GET /v1/yields/history as a zod schema (the YieldHistory
 * component), its example, and a compile-time check that it agrees with the
 * use-case's view type both ways.
 */

const timestamp = (description: string) => z.iso.datetime().meta({ description, examples: ['2026-01-31T12:00:00.000Z'] });
const apy = (description: string) => z.number().meta({ description: `${description}, supply APY in percent (4 decimals)` });

const bucketSchema = z.strictObject({
  start: timestamp('Start of the bucket (inclusive), on a UTC multiple of its width'),
  end: timestamp('End of the bucket (exclusive)'),
  min: apy('Lowest sample'),
  max: apy('Highest sample'),
  mean: apy('Mean of the samples'),
  samples: z.number().int().min(1).meta({ description: 'Samples in the bucket (one per minute at most)' }),
});

export const yieldHistorySchema = z
  .strictObject({
    from: timestamp('Start of the window (inclusive)'),
    to: timestamp('End of the window (exclusive)'),
    bucket: z.enum(RATE_BUCKETS).meta({ description: 'Width of each bucket (the one asked for, or the default for the window)' }),
    series: z
      .array(
        z.strictObject({
          chain: z.enum(CHAIN_NAMES),
          protocol: z.enum(LENDING_PROTOCOLS).meta({ description: 'Lending protocol' }),
          asset: z.enum(TOKEN_ASSETS as [(typeof TOKEN_ASSETS)[number], ...(typeof TOKEN_ASSETS)[number][]]),
          token: z
            .string()
            .regex(/^0x[0-9a-fA-F]{40}$/)
            .optional()
            .meta({ description: "The market's token contract; absent on samples recorded before samples named their token (a series of their own)" }),
          buckets: z.array(bucketSchema).meta({ description: 'Oldest first; buckets without samples are left out' }),
        }),
      )
      .meta({ description: 'One series per market (and token) with samples in the window, by chain, protocol, asset and token' }),
  })
  .openapi('YieldHistory', { description: 'Sampled supply APYs of the lending markets, bucketed with min, max and mean' });

export const YIELD_HISTORY_EXAMPLE: YieldHistory = {
  from: '2026-01-31T11:00:00.000Z',
  to: '2026-01-31T12:00:00.000Z',
  bucket: '5m',
  series: [
    {
      chain: 'base-sepolia',
      protocol: PROTOCOL_A,
      asset: 'USDC',
      buckets: [
        { start: '2026-01-31T11:50:00.000Z', end: '2026-01-31T11:55:00.000Z', min: 4.29, max: 4.29, mean: 4.29, samples: 5 },
        { start: '2026-01-31T11:55:00.000Z', end: '2026-01-31T12:00:00.000Z', min: 4.29, max: 6.5, mean: 5.174, samples: 5 },
      ],
    },
  ],
};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Widen<T> = T extends string ? string : T extends readonly (infer U)[] ? Widen<U>[] : T extends object ? { [K in keyof T]-?: Widen<T[K]> } : T;
const agrees: Same<Widen<z.output<typeof yieldHistorySchema>>, Widen<YieldHistory>> = true;
void agrees;
