import type { AppDeps } from '../deps';
import type { AuditActor } from '../../domain/audit';
import { auditActorOf, type Actor } from '../../domain/actor';
import { intentNotFound } from '../../domain/errors/intent';
import type { Intent } from '../../domain/intent';

/** What cancels intents: the engine, which owns their lifecycle. */
export interface IntentCanceller {
  cancel(intentId: string, by?: AuditActor): Promise<Intent>;
}

type CancelDeps = Pick<AppDeps, 'store'> & { engine: IntentCanceller };

/**
 * POST /v1/intents/:id/cancel and GraphQL cancelIntent: the actor's
 * account's intent (another account's is INTENT_NOT_FOUND), cancelled by the
 * engine in the actor's name.
 *
 * - `pending`: cancelled at once (version-checked), with what it reserved of
 *   its wallet's daily cap given back: it signed nothing.
 * - `planning`/`executing`: the request is recorded (`cancelRequestedAt`);
 *   the engine ends the intent `cancelled` before the next step that has
 *   nothing signed, with `results` saying what completed. A step with a
 *   signed transaction runs to its end.
 * - `cancelled`: answered as it is (idempotent); `completed`/`failed`: 409
 *   INTENT_NOT_CANCELLABLE.
 *
 * Answers the intent as stored after the request.
 */
export async function cancelIntent(deps: CancelDeps, actor: Actor, intentId: string): Promise<Intent> {
  const intent = await deps.store.intents.get(intentId);
  if (intent === null || intent.accountId !== actor.account.id) throw intentNotFound(intentId);
  return deps.engine.cancel(intent.id, auditActorOf(actor));
}
