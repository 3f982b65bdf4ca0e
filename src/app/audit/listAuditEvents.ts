import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { AuditEvent } from '../../domain/audit';
import { forbidden } from '../../domain/errors/auth';
import { invalidRequest } from '../../domain/errors/request';
import { listAuditEventsSchema, type ListAuditEventsParams } from '../../domain/schemas/audit';
import { parseInput } from '../../domain/schemas/parse';
import { isServiceError } from '../../domain/errors/base';
import type { AuditCursor } from '../../ports/store';

/** One page, Relay style: events newest first, each with its cursor. */
export interface AuditEventPage {
  edges: { cursor: string; node: AuditEvent }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** An opaque cursor: base64url of [at, id]. */
export function encodeAuditCursor(e: Pick<AuditEvent, 'at' | 'id'>): string {
  return Buffer.from(JSON.stringify([e.at, e.id])).toString('base64url');
}

/** Reads a cursor back; anything else is INVALID_REQUEST on `field`. */
export function decodeAuditCursor(cursor: string, field = 'cursor'): AuditCursor {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return { at: v[0], id: v[1] };
  } catch {
    // not JSON: reported below
  }
  throw invalidRequest([{ path: field, message: `${field} is not a cursor from this list` }]);
}

/**
 * What each front door calls the page parameters: REST `cursor` and `limit`,
 * GraphQL `after` and `first` (as its other connections). Errors name the
 * caller's own spelling.
 */
export type AuditQueryNames = { cursor: string; limit: string };
const REST_NAMES: AuditQueryNames = { cursor: 'cursor', limit: 'limit' };

/** The same INVALID_REQUEST with the page parameters named as the caller spelt them. */
function renamed(e: unknown, names: AuditQueryNames): unknown {
  if (names === REST_NAMES || !isServiceError(e) || e.code !== 'INVALID_REQUEST') return e;
  const issues = (e.details.issues ?? []) as { path: string; message: string; code?: string }[];
  const rename = (s: string) => s.replace(/^cursor\b/, names.cursor).replace(/^limit\b/, names.limit);
  return invalidRequest(issues.map((i) => ({ ...i, path: rename(i.path), message: rename(i.message) })));
}

/**
 * The caller's account's audit events, newest first, by cursor, with the
 * filters of ListAuditEventsParams (validated here, so both front doors hand
 * over what they received). A paid proof acts for no account: it has none to
 * read (FORBIDDEN; neither door offers this read for payment).
 */
export async function listAuditEvents(
  deps: Pick<AppDeps, 'store'>,
  principal: Principal,
  query: ListAuditEventsParams | Record<string, unknown>,
  names: AuditQueryNames = REST_NAMES,
): Promise<AuditEventPage> {
  if (principal.via === 'payment') throw forbidden('The audit log is read with an API key of the account');
  let q: ReturnType<typeof listAuditEventsSchema.parse>;
  let after: AuditCursor | undefined;
  try {
    q = parseInput(listAuditEventsSchema, query);
    after = q.cursor === undefined ? undefined : decodeAuditCursor(q.cursor);
  } catch (e) {
    throw renamed(e, names);
  }
  const since = q.since === undefined ? undefined : new Date(q.since).toISOString();
  const items = await deps.store.auditLog.list(principal.account.id, {
    type: q.type,
    walletId: q.walletId,
    intentId: q.intentId,
    since,
    limit: q.limit + 1,
    after,
  });
  const page = items.slice(0, q.limit);
  const edges = page.map((node) => ({ cursor: encodeAuditCursor(node), node }));
  return { edges, pageInfo: { hasNextPage: items.length > q.limit, endCursor: edges[edges.length - 1]?.cursor ?? null } };
}

/** An event as both front doors show it: the account is the caller's own, so it is left out. */
export interface AuditEventView {
  id: string;
  at: string;
  type: AuditEvent['type'];
  actor: AuditEvent['actor'];
  subject: AuditEvent['subject'];
  details: AuditEvent['details'];
}

export const toAuditEventView = (e: AuditEvent): AuditEventView => ({
  id: e.id,
  at: e.at,
  type: e.type,
  actor: e.actor,
  subject: e.subject,
  details: e.details,
});
