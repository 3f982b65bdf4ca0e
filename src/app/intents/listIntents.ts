import { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { getWalletById } from '../wallets/getWallet';
import { invalidRequest } from '../../domain/errors/request';
import { INTENT_STATUSES, type Intent } from '../../domain/intent';
import { parseInput } from '../../domain/schemas/parse';
import type { IntentCursor } from '../../ports/store';

/** Largest page a client may ask for. */
export const MAX_PAGE = 100;
/** Page size when `first` is absent. */
export const DEFAULT_PAGE = 20;

/** Query of GET /intents and Query.intents (query strings arrive as strings, hence the coercion). */
export const listIntentsSchema = z.strictObject({
  walletId: z.string({ error: (iss) => (iss.input === undefined ? 'walletId is required' : 'walletId must be a string') }).min(1, 'walletId must not be empty'),
  status: z.enum(INTENT_STATUSES, { error: `status must be one of: ${INTENT_STATUSES.join(', ')}` }).optional(),
  first: z.coerce
    .number({ error: 'first must be a whole number' })
    .int('first must be a whole number')
    .min(1, 'first must be at least 1')
    .max(MAX_PAGE, `first must be at most ${MAX_PAGE}`)
    .default(DEFAULT_PAGE),
  after: z.string().min(1, 'after must not be empty').optional(),
});

/** What a client may pass: walletId, status?, first? (1–100, default 20), after? (a cursor). */
export type ListIntentsParams = z.input<typeof listIntentsSchema>;

/** One page, Relay style: items newest first, each with its cursor. */
export interface IntentPage {
  edges: { cursor: string; node: Intent }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** An opaque cursor: base64url of [createdAt, id]. */
export function encodeCursor(i: Pick<Intent, 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([i.createdAt, i.id])).toString('base64url');
}

/** Reads a cursor back; anything else is INVALID_REQUEST on `after`. */
export function decodeCursor(cursor: string): IntentCursor {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return { createdAt: v[0], id: v[1] };
  } catch {
    // not JSON: reported below
  }
  throw invalidRequest([{ path: 'after', message: 'after is not a cursor from this list' }]);
}

/**
 * A wallet's intents (the caller's wallet only, else WALLET_NOT_FOUND), newest
 * first, by cursor. `query` is validated here (ListIntentsParams), so both
 * front doors hand over what they received.
 */
export async function listIntents(deps: Pick<AppDeps, 'store'>, principal: Principal, query: ListIntentsParams | Record<string, unknown>): Promise<IntentPage> {
  const q = parseInput(listIntentsSchema, query);
  const after = q.after === undefined ? undefined : decodeCursor(q.after);
  const wallet = await getWalletById(deps, principal, q.walletId);
  const items = await deps.store.intents.listByWallet(wallet.id, { status: q.status, limit: q.first + 1, after });
  const page = items.slice(0, q.first);
  const edges = page.map((node) => ({ cursor: encodeCursor(node), node }));
  return { edges, pageInfo: { hasNextPage: items.length > q.first, endCursor: edges[edges.length - 1]?.cursor ?? null } };
}
