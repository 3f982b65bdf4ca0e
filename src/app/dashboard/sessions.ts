import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { Account, SessionRecord, User } from '../../domain/types';
import { DuplicateError } from '../../ports/store';
import { newId } from '../../domain/ids';
import { rateLimitExceeded, unauthorized } from '../../domain/errors/auth';
import { createAccount } from '../accounts/createAccount';
import { countInWindow, rateHeaders, retryAfterSeconds } from '../accounts/rateLimit';
import type { Admission } from '../accounts/admitRequest';
import { SESSION_CREDENTIAL_PREFIX } from '../accounts/principal';

/** A dashboard session lasts 12 hours (docs/decisions.md, "dashboard"). */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Dashboard operations one signed-in person may run per minute (they cost the account no credits and no API rate). */
export const SESSION_OPERATIONS_PER_MINUTE = 300;

/** Who the identity provider says signed in. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
}

type SessionDeps = Pick<AppDeps, 'store' | 'clock' | 'sessionSecret'> & Partial<Pick<AppDeps, 'revocations'>>;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const signature = (secret: Buffer, token: string) => createHmac('sha256', secret).update(token).digest('base64url');

/** The cookie value: a random token and its HMAC, so a forged or altered value is refused before any lookup. */
export function sealToken(secret: Buffer, token: string): string {
  return `${token}.${signature(secret, token)}`;
}

/** The token inside a cookie value whose signature holds, else null. */
export function openToken(secret: Buffer, value: string | undefined): string | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot <= 0 || value.length > 200) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(signature(secret, token));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** The user behind an identity; a first sign-in creates them with an account on the free plan (no key: they create one in the dashboard). */
async function userFor(deps: Pick<AppDeps, 'store' | 'clock'>, identity: VerifiedIdentity): Promise<User> {
  const now = deps.clock.now().toISOString();
  const found = await deps.store.users.findByIdentity(identity.issuer, identity.subject);
  if (found) {
    await deps.store.users.recordSignIn(found.id, identity.email, now);
    return { ...found, email: identity.email, lastSignInAt: now };
  }
  const { account } = await createAccount(deps, { plan: 'free', withoutKey: true });
  const user: User = { id: newId('user'), ...identity, accountId: account.id, createdAt: now, lastSignInAt: now };
  try {
    await deps.store.users.insert(user);
    return user;
  } catch (e) {
    // Signed in twice at once: the other sign-in created the user; its account is the one (ours stays empty and unused).
    if (!(e instanceof DuplicateError)) throw e;
    const winner = await deps.store.users.findByIdentity(identity.issuer, identity.subject);
    if (!winner) throw e;
    return winner;
  }
}

/** Signs a verified identity in: a new session (only its token's digest is stored) and the cookie value that carries it. */
export async function signIn(deps: SessionDeps, identity: VerifiedIdentity): Promise<{ cookieValue: string; expiresAt: Date; user: User }> {
  const user = await userFor(deps, identity);
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const session: SessionRecord = {
    id: digest(token),
    userId: user.id,
    accountId: user.accountId,
    email: user.email,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
  await deps.store.sessions.insert(session);
  return { cookieValue: sealToken(deps.sessionSecret, token), expiresAt, user };
}

/** The live session a cookie value names, with its account; null for a missing, forged, expired or signed-out one. */
export async function readSession(deps: SessionDeps, cookieValue: string | undefined): Promise<{ session: SessionRecord; account: Account } | null> {
  const token = openToken(deps.sessionSecret, cookieValue);
  if (!token) return null;
  const session = await deps.store.sessions.get(digest(token));
  if (!session) return null;
  const account = await deps.store.accounts.get(session.accountId);
  return account ? { session, account } : null;
}

/**
 * Ends the session a cookie value names (sign-out): the cookie stops working
 * at once, and streams opened with it end (here at once; on other instances
 * at their next re-read, keyRevocations).
 */
export async function signOut(deps: SessionDeps, cookieValue: string | undefined): Promise<void> {
  const token = openToken(deps.sessionSecret, cookieValue);
  if (!token) return;
  const id = digest(token);
  await deps.store.sessions.delete(id);
  deps.revocations?.revoked(SESSION_CREDENTIAL_PREFIX + id);
}

/**
 * The gate of a dashboard operation: a live session, and one unit of the
 * person's own per-minute window (the account's API rate window and credits
 * are its keys', not the dashboard's).
 */
export async function admitSession(deps: SessionDeps, cookieValue: string | undefined): Promise<Admission> {
  const found = await readSession(deps, cookieValue);
  if (!found) throw unauthorized('Not signed in, or the session has expired: sign in again at /dashboard', { reason: 'session' });
  const { session, account } = found;
  const rate = await countInWindow(deps, `session:${session.userId}`, SESSION_OPERATIONS_PER_MINUTE);
  if (rate.exceeded) {
    const err = rateLimitExceeded(rate.limit, rate.reset, retryAfterSeconds(rate, deps.clock.now()));
    Object.assign(err.quotaHeaders, rateHeaders(rate));
    throw err;
  }
  return {
    principal: { account, keyId: null, scopes: ['read', 'write'], via: 'session', user: { id: session.userId, email: session.email, sessionId: session.id } },
    rate,
  };
}
