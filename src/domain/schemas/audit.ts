import { z } from 'zod';
import { AUDIT_EVENT_TYPES } from '../audit';
import { ID_PREFIX } from '../ids';

/** Largest page of audit events a client may ask for. */
export const MAX_AUDIT_PAGE = 100;
/** Page size when `limit` is absent. */
export const DEFAULT_AUDIT_PAGE = 20;

/** An ISO 8601 date (`2026-01-31`, midnight UTC) or date-time with `Z` or an offset. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Whether `s` names a real instant in ISO 8601 (`2026-02-30` does not). */
function isIsoInstant(s: string): boolean {
  if (!ISO_8601.test(s) || Number.isNaN(Date.parse(s))) return false;
  const [y, m, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

const idOf = (kind: 'wallet' | 'intent', field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .regex(
      new RegExp(`^${ID_PREFIX[kind]}[0-9a-f]{32}$`),
      `${field} must be ${kind === 'wallet' ? 'a wallet id (svc_wallet_' : 'an intent id (intent_'} and 32 hex characters)`,
    );

/**
 * GET /v1/audit-events?type=&walletId=&intentId=&since=&cursor=&limit= (query
 * strings arrive as strings, hence the coercion of `limit`). Any other
 * parameter is 400 INVALID_REQUEST naming it.
 */
export const listAuditEventsSchema = z.strictObject({
  type: z
    .enum(AUDIT_EVENT_TYPES, { error: `type must be one of: ${AUDIT_EVENT_TYPES.join(', ')}` })
    .optional()
    .meta({ description: 'Only events of this type', examples: ['intent.failed'] }),
  walletId: idOf('wallet', 'walletId')
    .optional()
    .meta({ description: 'Only events about this wallet', examples: ['svc_wallet_0123456789abcdef0123456789abcdef'] }),
  intentId: idOf('intent', 'intentId')
    .optional()
    .meta({ description: 'Only events about this intent', examples: ['intent_0123456789abcdef0123456789abcdef'] }),
  since: z
    .string({ error: 'since must be a string' })
    .refine(isIsoInstant, 'since must be an ISO 8601 date or date-time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)')
    .optional()
    .meta({ description: 'Only events at or after this instant (ISO 8601)', examples: ['2026-01-31T00:00:00Z'] }),
  cursor: z
    .string({ error: 'cursor must be a string' })
    .min(1, 'cursor must not be empty')
    .max(512, 'cursor is not a cursor from this list')
    .optional()
    .meta({ description: 'The `nextCursor` of the previous page (opaque)' }),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_AUDIT_PAGE, `limit must be at most ${MAX_AUDIT_PAGE}`)
    .default(DEFAULT_AUDIT_PAGE)
    .meta({ description: `Page size, 1-${MAX_AUDIT_PAGE} (default ${DEFAULT_AUDIT_PAGE})` }),
});

export type ListAuditEventsParams = z.input<typeof listAuditEventsSchema>;
