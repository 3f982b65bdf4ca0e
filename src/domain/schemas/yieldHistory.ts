import { z } from 'zod';
import { LENDING_PROTOCOLS } from '../chains';
import { RATE_BUCKETS, YIELD_HISTORY_MAX_WINDOW_DAYS } from '../rateHistory';
import { chainNameSchema, tokenAssetSchema } from './yields';

/** An ISO 8601 date (`2026-01-31`, midnight UTC) or date-time with `Z` or an offset. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Whether `s` names a real instant in ISO 8601 (`2026-02-30` does not). */
export function isIsoInstant(s: string): boolean {
  if (!ISO_8601.test(s) || Number.isNaN(Date.parse(s))) return false;
  const [y, m, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

const instant = (field: 'from' | 'to', description: string, example: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine(isIsoInstant, `${field} must be an ISO 8601 date or date-time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)`)
    .optional()
    .meta({ description, examples: [example] });

/**
 * GET /v1/yields/history?chain=&protocol=&asset=&from=&to=&bucket= (all
 * optional). Any other parameter is 400 INVALID_REQUEST naming it. The rules
 * between parameters (from before to, at most YIELD_HISTORY_MAX_WINDOW_DAYS,
 * at most MAX_HISTORY_BUCKETS buckets) are the use-case's, which knows the time.
 */
export const yieldHistoryQuerySchema = z.strictObject({
  chain: chainNameSchema.optional().meta({ description: 'Only markets on this chain' }),
  protocol: z
    .enum(LENDING_PROTOCOLS, { error: `protocol must be one of ${LENDING_PROTOCOLS.join(', ')}` })
    .optional()
    .meta({ description: 'Only markets of this lending protocol' }),
  asset: tokenAssetSchema.optional().meta({ description: 'Only markets of this asset' }),
  from: instant(
    'from',
    `Start of the window (inclusive), ISO 8601; default 24 h before \`to\`; at most ${YIELD_HISTORY_MAX_WINDOW_DAYS} days before \`to\``,
    '2026-01-30T12:00:00Z',
  ),
  to: instant('to', 'End of the window (exclusive), ISO 8601; default now', '2026-01-31T12:00:00Z'),
  bucket: z
    .enum(RATE_BUCKETS, { error: `bucket must be one of ${RATE_BUCKETS.join(', ')}` })
    .optional()
    .meta({ description: 'Bucket width; by default the smallest that makes at most 500 buckets of the window (24 h: 5m)' }),
});

export type YieldHistoryParams = z.input<typeof yieldHistoryQuerySchema>;
