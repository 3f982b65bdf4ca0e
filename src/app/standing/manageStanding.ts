import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { ID_PREFIX, newId } from '../../domain/ids';
import { supportsAsset } from '../../domain/chains';
import { STANDING_LIMITS, type StandingIntent, type StandingIntentStatus } from '../../domain/standingIntent';
import { parseInput } from '../../domain/schemas/parse';
import { standingPageSchema } from '../../domain/schemas/standing';
import { invalidRequest } from '../../domain/errors/request';
import { standingIntentAlreadyExists, standingIntentNotFound } from '../../domain/errors/standing';
import { ServiceError } from '../../domain/errors/base';
import { DuplicateError } from '../../ports/store';
import { decodeCursor, encodeCursor } from '../intents/listIntents';
import { recordAudit } from '../audit/recordAudit';
import { auditActorOf, type Actor } from '../../domain/actor';
import type { CreateStandingIntentCommand } from '../../domain/commands';
import { walletNotFound } from '../../domain/errors/wallet';
import { withIdempotency, type Replayable } from '../idempotency';
import { toDecisionView, toStandingView, type DecisionView, type StandingIntentView } from './standingView';

type Deps = Pick<AppDeps, 'store' | 'clock'> & Partial<Pick<AppDeps, 'logger'>>;

/** One page, Relay style, newest first. */
export interface StandingPage<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** The caller's standing intent, or STANDING_INTENT_NOT_FOUND (another account's answers the same as none). */
export async function ownStanding(deps: Pick<AppDeps, 'store'>, principal: Pick<Principal, 'account'>, standingIntentId: string): Promise<StandingIntent> {
  const s = await deps.store.standingIntents.get(standingIntentId);
  if (!s || s.accountId !== principal.account.id) throw standingIntentNotFound(standingIntentId);
  return s;
}

/**
 * Creates a standing intent, active. The wallet must be the actor's
 * account's (else WALLET_NOT_FOUND) and have a chain where the asset exists;
 * a wallet keeps one standing intent per asset (a second is 409
 * STANDING_INTENT_ALREADY_EXISTS naming the first: the store's unique index on
 * wallet and asset settles two racing creates), an account at most
 * STANDING_LIMITS.perAccount. Under `idSeed` (an Idempotency-Key's record) a
 * retry whose first attempt stored it answers that one.
 */
export async function createStandingIntent(
  deps: Deps,
  actor: Actor,
  command: CreateStandingIntentCommand,
  options: { idSeed?: string } = {},
): Promise<StandingIntent> {
  const seed = options.idSeed;
  const wallet = await deps.store.wallets.getById(command.walletId);
  if (!wallet || wallet.accountId !== actor.account.id) throw walletNotFound({ walletId: command.walletId });
  if (wallet.chainType === 'tron')
    throw invalidRequest([{ path: 'walletId', message: 'standing intents need an EVM wallet (Tron has no lending market yet)' }]);
  if (!wallet.chains.some((c) => supportsAsset(c, command.asset))) {
    throw invalidRequest([{ path: 'asset', message: `the wallet has no chain where ${command.asset} exists (its chains: ${wallet.chains.join(', ')})` }]);
  }
  const existing = async () => (await deps.store.standingIntents.listByWallet(wallet.id)).find((s) => s.asset === command.asset) ?? null;
  // Answered before the account's count, so a repeated create says what exists rather than that the account is full.
  const first = await existing();
  if (first) {
    // a retry that took a dead first attempt over (same key, same seed) finds what the first attempt stored: that is its answer
    if (seed !== undefined && first.id === seededId(seed)) return first;
    throw standingIntentAlreadyExists(wallet.id, command.asset, first.id);
  }
  if ((await deps.store.standingIntents.countByAccount(actor.account.id)) >= STANDING_LIMITS.perAccount) {
    throw invalidRequest([{ path: 'walletId', message: `an account has at most ${STANDING_LIMITS.perAccount} standing intents: delete one first` }]);
  }
  const now = deps.clock.now().toISOString();
  const standing: StandingIntent = {
    // under an Idempotency-Key the id comes from the key's record (see above)
    id: seed === undefined ? newId('standing') : seededId(seed),
    accountId: actor.account.id,
    walletId: wallet.id,
    asset: command.asset,
    ...(command.amount !== undefined && { amount: command.amount }),
    horizonDays: command.horizonDays,
    minGainUsd: command.minGainUsd,
    maxMovesPerDay: command.maxMovesPerDay,
    status: 'active',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  try {
    await deps.store.standingIntents.insert(standing);
  } catch (e) {
    // a concurrent create won the wallet and asset: the store's unique index decided, this one names the winner
    if (e instanceof DuplicateError && e.index === 'standingIntents.walletId_asset') {
      throw standingIntentAlreadyExists(wallet.id, command.asset, (await existing())?.id ?? null);
    }
    throw e;
  }
  await recordAudit(deps, {
    accountId: standing.accountId,
    type: 'standing_intent.created',
    actor: auditActorOf(actor),
    subject: { walletId: standing.walletId, standingIntentId: standing.id },
    details: {
      asset: standing.asset,
      amount: standing.amount ?? null,
      horizonDays: standing.horizonDays,
      minGainUsd: standing.minGainUsd,
      maxMovesPerDay: standing.maxMovesPerDay,
    },
  });
  return standing;
}

/**
 * createStandingIntent under an Idempotency-Key, for 24 h, as both doors
 * honour it (one record per account and key): the first answer (201 and the
 * view) again for the same request, 409 IDEMPOTENCY_CONFLICT for another.
 * `commandOf` runs inside the guard, so a refused parse frees the key.
 */
export function createStandingIntentOnce(
  deps: Deps,
  actor: Actor,
  idempotency: { key: string | undefined; request: unknown },
  commandOf: () => CreateStandingIntentCommand,
): Promise<Replayable<StandingIntentView>> {
  return withIdempotency(deps, { scope: `${actor.account.id}:createStandingIntent`, ...idempotency }, async ({ seed }) => {
    const standing = await createStandingIntent(deps, actor, commandOf(), seed === undefined ? {} : { idSeed: seed });
    return { status: 201, body: toStandingView(standing) };
  });
}

/** The id a standing intent created under an Idempotency-Key gets: the same for every run of one key's record. */
const seededId = (seed: string) => `${ID_PREFIX.standing}${seed.slice(0, 32)}`;

export async function getStandingIntent(deps: Pick<AppDeps, 'store'>, principal: Principal, standingIntentId: string): Promise<StandingIntentView> {
  return toStandingView(await ownStanding(deps, principal, standingIntentId));
}

/** The account's standing intents, newest first, by cursor (like policies). */
export async function listStandingIntents(
  deps: Pick<AppDeps, 'store'>,
  principal: Principal,
  query: Record<string, unknown>,
): Promise<StandingPage<StandingIntentView>> {
  const q = parseInput(standingPageSchema, query);
  const after = q.after === undefined ? undefined : decodeCursor(q.after);
  const items = await deps.store.standingIntents.listByAccount(principal.account.id, { limit: q.first + 1, after });
  const edges = items.slice(0, q.first).map((s) => ({ cursor: encodeCursor(s), node: toStandingView(s) }));
  return { edges, pageInfo: { hasNextPage: items.length > q.first, endCursor: edges[edges.length - 1]?.cursor ?? null } };
}

/**
 * Pause and resume: the status, version + 1, audited. Asking for the status
 * it has already answers it as it is (nothing changes, nothing recorded).
 */
async function setStatus(deps: Deps, actor: Actor, standingIntentId: string, status: StandingIntentStatus): Promise<StandingIntentView> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const cur = await ownStanding(deps, actor, standingIntentId);
    if (cur.status === status) return toStandingView(cur);
    const next: StandingIntent = { ...cur, status, version: cur.version + 1, updatedAt: deps.clock.now().toISOString() };
    // (the decider's bookkeeping also moves the version: a lost race reads it again)
    if (await deps.store.standingIntents.update(next, cur.version)) {
      await recordAudit(deps, {
        accountId: next.accountId,
        type: status === 'paused' ? 'standing_intent.paused' : 'standing_intent.resumed',
        actor: auditActorOf(actor),
        subject: { walletId: next.walletId, standingIntentId: next.id },
        details: { version: next.version },
      });
      return toStandingView(next);
    }
  }
  throw new ServiceError('VERSION_CONFLICT', 'The standing intent was changed concurrently; try again', { details: { standingIntentId } });
}

/** POST /standing-intents/:id/pause: no decision is taken until it is resumed (a rebalance already running runs to its end). */
export const pauseStandingIntent = (deps: Deps, actor: Actor, standingIntentId: string) => setStatus(deps, actor, standingIntentId, 'paused');

/** POST /standing-intents/:id/resume: decided again from the next sample. */
export const resumeStandingIntent = (deps: Deps, actor: Actor, standingIntentId: string) => setStatus(deps, actor, standingIntentId, 'active');

/** DELETE /standing-intents/:id: 204; its decisions go with it (a rebalance already running runs to its end). */
export async function deleteStandingIntent(deps: Deps, actor: Actor, standingIntentId: string): Promise<void> {
  const s = await ownStanding(deps, actor, standingIntentId);
  // A concurrent delete that got there first records it.
  if (!(await deps.store.standingIntents.delete(s.id))) return;
  await deps.store.standingDecisions.deleteByStandingIntent(s.id);
  await recordAudit(deps, {
    accountId: s.accountId,
    type: 'standing_intent.deleted',
    actor: auditActorOf(actor),
    subject: { walletId: s.walletId, standingIntentId: s.id },
    details: { asset: s.asset },
  });
}

/** A decision's cursor: its sample minute and id, in the cursor format of every list. */
const decisionCursor = (d: { sampleAt: string; id: string }) => encodeCursor({ createdAt: d.sampleAt, id: d.id });

/** GET /standing-intents/:id/decisions: its decisions, newest first, by cursor. */
export async function listStandingDecisions(
  deps: Pick<AppDeps, 'store'>,
  principal: Principal,
  standingIntentId: string,
  query: Record<string, unknown>,
): Promise<StandingPage<DecisionView>> {
  const q = parseInput(standingPageSchema, query);
  const s = await ownStanding(deps, principal, standingIntentId);
  const cursor = q.after === undefined ? undefined : decodeCursor(q.after);
  const after = cursor && { sampleAt: cursor.createdAt, id: cursor.id };
  const items = await deps.store.standingDecisions.list(s.id, { limit: q.first + 1, after });
  const edges = items.slice(0, q.first).map((d) => ({ cursor: decisionCursor(d), node: toDecisionView(d) }));
  return { edges, pageInfo: { hasNextPage: items.length > q.first, endCursor: edges[edges.length - 1]?.cursor ?? null } };
}
