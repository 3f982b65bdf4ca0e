import type { AuditActor } from '../domain/audit';
import type { Clock } from '../domain/clock';
import { isServiceError } from '../domain/errors/base';
import type { Intent } from '../domain/intent';
import type { AuditLog, IntentRepo } from '../ports/store';
import type { EngineLogger } from './engineLogger';
import type { IntentBus } from '../ports/intentBus';
import { recordFinalIntent } from './intentAudit';
import { isFinal, transition, type IntentEvent } from '../domain/intentStateMachine';

/** Where a committed transition is written and told. */
export interface CommitDeps {
  repo: Pick<IntentRepo, 'update'> & Partial<Pick<IntentRepo, 'get'>>;
  bus: IntentBus;
  clock: Pick<Clock, 'now'>;
  logger: EngineLogger;
  /** Where a final transition is recorded (absent: not recorded). */
  auditLog?: Pick<AuditLog, 'append'>;
  /** Told once of a final transition, after it is persisted and before it is published. */
  onFinal?: (intent: Intent) => Promise<void> | void;
  /** Told of every change of status, after it is persisted (metrics, webhooks; must not throw). */
  onTransition?: (intent: Intent) => void;
}

/** How one commit goes beyond the default. */
export interface CommitOptions {
  /** Who made a final transition, for its audit event; default the service itself. */
  by?: AuditActor;
  /**
   * On VERSION_CONFLICT, given the stored intent: the copy to apply the event
   * to instead (the intent actor adopts a client's cancel request), or null
   * to let the conflict stand (thrown). Absent: thrown.
   */
  rebase?: (stored: Intent | null) => Intent | null;
  /** Told the committed intent as soon as it is persisted, before anyone else is told of it (the intent actor keeps it as its state). */
  persisted?: (next: Intent) => void;
}

/**
 * The one way an intent moves (docs/architecture.md, "The intent engine"):
 * the state machine's transition, persisted under the optimistic version,
 * then told exactly once: `onTransition` for a change of status; for a final
 * one the audit event, recorded before it is published so a subscriber that
 * sees the final state finds it, and `onFinal`; last the bus, so a
 * subscriber never sees a state the store does not have. Resolves the
 * committed intent.
 */
export async function commitTransition(deps: CommitDeps, current: Intent, event: IntentEvent, o: CommitOptions = {}): Promise<Intent> {
  let base = current;
  let next = transition(base, event, deps.clock.now());
  try {
    await deps.repo.update(next, base.version);
  } catch (err) {
    const rebased = o.rebase && deps.repo.get && isServiceError(err) && err.code === 'VERSION_CONFLICT' ? o.rebase(await deps.repo.get(current.id)) : null;
    if (!rebased) throw err;
    base = rebased;
    next = transition(base, event, deps.clock.now());
    await deps.repo.update(next, base.version);
  }
  o.persisted?.(next);
  if (next.status !== base.status) {
    try {
      deps.onTransition?.(next);
    } catch (err) {
      // the transition is stored and stands; a failing hook loses its own report only
      deps.logger.warn({ err, intentId: next.id }, 'transition hook failed');
    }
  }
  if (isFinal(next.status)) {
    await recordFinalIntent(deps.auditLog, next, deps.logger, o.by);
    await Promise.resolve(deps.onFinal?.(next)).catch((err: unknown) => deps.logger.warn({ err, intentId: next.id }, 'final-state hook failed'));
  }
  deps.bus.publish(next);
  return next;
}
