import type { AuditActor } from '../domain/audit';
import { isServiceError } from '../domain/errors/base';
import { intentNotCancellable, intentNotFound, versionConflict } from '../domain/errors/intent';
import { isFinal, type Intent, type Step } from '../domain/intent';
import type { IntentRepo } from '../ports/store';
import { commitTransition, type CommitDeps } from './commitTransition';
import { findSubTx } from '../domain/txRecords';
import { subTransactions } from './stepRequests';

/**
 * Cancellation, the engine's side (docs/architecture.md). A `pending`
 * intent is cancelled at once through the one commit every transition takes
 * (the wallet actor skips it, final, when its turn comes). For a `planning`
 * or `executing` one the request is recorded on the intent
 * (`cancelRequestedAt`) by a version-checked update; the intent actor adopts
 * it when its next commit meets that newer version (adoptCancelRequest), and
 * ends the intent `cancelled` at the next step boundary where nothing of the
 * step is signed (cancelPoint). A step with a signed transaction is always
 * run to its end: a broadcast transaction is never abandoned.
 */

/** Concurrent engine commits a cancel outlasts before it answers VERSION_CONFLICT (each try re-reads the intent). */
const MAX_TRIES = 20;

/** `write`'s result, or null when a concurrent writer changed the intent first (VERSION_CONFLICT), so the caller reads it again. */
async function unlessConflict<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (e) {
    if (isServiceError(e) && e.code === 'VERSION_CONFLICT') return null;
    throw e;
  }
}

/**
 * A client's cancel of intent `intentId`, made `by` it (its audit event's
 * actor): a pending intent committed `cancelled`, a planning or executing
 * one with the request recorded, a cancelled one as it is; a completed or
 * failed one is INTENT_NOT_CANCELLABLE. A write racing with an engine commit
 * is tried again on the newer copy, never dropped. Resolves the intent as
 * stored after the request.
 */
export async function cancelIntent(deps: CommitDeps & { repo: Pick<IntentRepo, 'get' | 'update'> }, intentId: string, by?: AuditActor): Promise<Intent> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const intent = await deps.repo.get(intentId);
    if (intent === null) throw intentNotFound(intentId);
    if (intent.status === 'cancelled') return intent;
    if (isFinal(intent.status)) throw intentNotCancellable(intent.id, intent.status);
    let stored: Intent | null;
    if (intent.status === 'pending') {
      stored = await unlessConflict(() => commitTransition(deps, intent, { type: 'cancel' }, { by }));
    } else {
      if (intent.cancelRequestedAt) return intent;
      const at = deps.clock.now().toISOString();
      const requested: Intent = { ...intent, cancelRequestedAt: at, version: intent.version + 1, updatedAt: at };
      stored = await unlessConflict(() => deps.repo.update(requested, intent.version).then(() => requested));
    }
    if (stored) return stored;
  }
  throw versionConflict(intentId, -1);
}

/** The fields a cancel request changes on the stored intent. */
const REQUEST_FIELDS = ['cancelRequestedAt', 'version', 'updatedAt'] as const;

const withoutRequest = (i: Intent): string => {
  const copy: Record<string, unknown> = { ...i };
  for (const f of REQUEST_FIELDS) delete copy[f];
  return JSON.stringify(copy, Object.keys(copy).sort());
};

/**
 * When the stored intent is the actor's own copy plus a cancel request (and
 * nothing else), the copy the actor should continue from: its own with the
 * request and the stored version. Null when another writer changed more (the
 * actor then lets go).
 */
export function adoptCancelRequest(mine: Intent, stored: Intent | null): Intent | null {
  if (stored === null || !stored.cancelRequestedAt || mine.cancelRequestedAt || stored.version <= mine.version) return null;
  if (stored.status !== mine.status || withoutRequest(stored) !== withoutRequest(mine)) return null;
  return { ...mine, cancelRequestedAt: stored.cancelRequestedAt, version: stored.version, updatedAt: stored.updatedAt };
}

/** Whether any sub-transaction of `step` has been signed (its hash recorded). */
export function stepHasSigned(intent: Intent, step: Step): boolean {
  return subTransactions(step).some((spec) => findSubTx(intent.results, step.index, spec.kind) !== undefined);
}

/**
 * The `cancel` event when the intent should stop here: a cancel was
 * requested and `step` (the next one to run) has nothing signed. A step that
 * had started is put back to `pending` (it sent nothing). Null otherwise.
 */
export function cancelPoint(intent: Intent, step: Step): { type: 'cancel'; step?: Step } | null {
  if (!intent.cancelRequestedAt || stepHasSigned(intent, step)) return null;
  if (step.status === 'pending') return { type: 'cancel' };
  const { startedAt, attempts, lastError, nextAttemptAt, ...rest } = step;
  void startedAt;
  void attempts;
  void lastError;
  void nextAttemptAt;
  return { type: 'cancel', step: { ...rest, status: 'pending' } as Step };
}
