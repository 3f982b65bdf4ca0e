import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { getIntent } from './getIntent';
import { actorOf, recordAudit } from '../audit/recordAudit';
import { settleFinalIntent } from '../budgets/finalIntent';
import { isServiceError } from '../../domain/errors/base';
import { intentNotCancellable, versionConflict } from '../../domain/errors/intent';
import type { Intent } from '../../domain/intent';
import { transition } from '../../domain/intentStateMachine';
import { finalIntentEvent } from '../../domain/intentAuditEvent';

/** Concurrent engine commits a cancel request outlasts before it answers VERSION_CONFLICT (each try re-reads the intent). */
const MAX_TRIES = 20;

type CancelDeps = Pick<AppDeps, 'store' | 'clock' | 'engine' | 'logger' | 'onIntentTransition'>;

/** Runs `write`; false when a concurrent writer changed the intent first (VERSION_CONFLICT), so the caller reads it again. */
async function won(write: () => Promise<void>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (e) {
    if (isServiceError(e) && e.code === 'VERSION_CONFLICT') return false;
    throw e;
  }
}

/**
 * POST /v1/intents/:id/cancel and GraphQL cancelIntent (issue 13 item 3).
 *
 * - `pending`: cancelled at once, by a version-checked update (the engine
 *   skips an intent that is final when its turn comes; an actor that had
 *   already picked it up loses its next commit and lets go). What the intent
 *   reserved of its wallet's daily cap is given back: it signed nothing.
 * - `planning`/`executing`: the request is recorded (`cancelRequestedAt`) by
 *   a version-checked update; the engine adopts it at its next commit and ends
 *   the intent `cancelled` before the next step that has nothing signed,
 *   with `results` saying what completed. A step with a signed transaction
 *   runs to its end.
 * - `cancelled`: answered as it is (idempotent); `completed`/`failed`: 409
 *   INTENT_NOT_CANCELLABLE.
 *
 * A write racing with an engine commit (VERSION_CONFLICT) is retried on the
 * newer copy, never dropped. Answers the intent as stored after the request.
 */
export async function cancelIntent(deps: CancelDeps, principal: Principal, intentId: string): Promise<Intent> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const intent = await getIntent(deps, principal, intentId);
    if (intent.status === 'cancelled') return intent;
    if (intent.status === 'completed' || intent.status === 'failed') throw intentNotCancellable(intent.id, intent.status);
    const now = deps.clock.now();
    if (intent.status === 'pending') {
      const cancelled = transition(intent, { type: 'cancel' }, now);
      if (!(await won(() => deps.store.intents.update(cancelled, intent.version)))) continue;
      await settleCancelled(deps, principal, cancelled);
      return cancelled;
    }
    if (intent.cancelRequestedAt) return intent;
    const requested: Intent = { ...intent, cancelRequestedAt: now.toISOString(), version: intent.version + 1, updatedAt: now.toISOString() };
    if (await won(() => deps.store.intents.update(requested, intent.version))) return requested;
  }
  throw versionConflict(intentId, -1);
}

/** What the engine does after a final transition, for the one the use-case made: reservation back, audit, metrics and hooks, then published. */
async function settleCancelled(deps: CancelDeps, principal: Principal, intent: Intent): Promise<void> {
  await settleFinalIntent(deps, intent).catch((err: unknown) => deps.logger?.warn({ err, intentId: intent.id }, 'reservation of a cancelled intent not given back'));
  const event = finalIntentEvent(intent);
  if (event) await recordAudit(deps, { accountId: event.accountId, type: event.type, subject: event.subject, details: event.details, actor: actorOf(principal) });
  try {
    deps.onIntentTransition?.(intent);
  } catch {
    // a hook must not fail the cancellation, which is stored already
  }
  deps.engine.bus.publish(intent);
}
