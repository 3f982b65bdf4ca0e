import type { Intent, Step } from '../domain/intent';
import { findSubTx } from './executor/txRecords';
import { subTransactions } from './executor/subTransactions';

/**
 * Cancellation (issue 13 item 3), the engine's side. The client's request is
 * recorded on the intent (`cancelRequestedAt`) by a version-checked update of
 * app/intents/cancelIntent.ts; the intent actor adopts it when its next
 * commit meets that newer version (adoptCancelRequest), and the engine ends
 * the intent `cancelled` at the next step boundary where nothing of the step
 * is signed (cancelPoint). A step with a signed transaction is always run to
 * its end: a broadcast transaction is never abandoned.
 */

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
 * actor then lets go, as before).
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
