import type { AuditActor, AuditEvent } from './audit';
import { newTimeOrderedId } from './ids';
import { isFinal, type Intent } from './intent';

/** The service itself: the engine finishing an intent. */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null };

/**
 * The audit event of an intent's final transition, by `actor` (default the
 * service itself; a client's key for a cancel it made), or null while it is
 * not final. Completed: what it achieved
 * (finalAmount, apy); failed: the error's code and message, and the failed
 * step when execution had started. Nothing else of the intent (no
 * transaction bytes, no error details).
 */
export function finalIntentEvent(intent: Intent, actor: AuditActor = SYSTEM_ACTOR): AuditEvent | null {
  if (!isFinal(intent.status)) return null;
  const common = {
    id: newTimeOrderedId('audit', Date.parse(intent.updatedAt)),
    accountId: intent.accountId,
    at: intent.updatedAt,
    actor: { type: actor.type, id: actor.id },
    subject: { walletId: intent.walletId, intentId: intent.id },
  };
  if (intent.status === 'completed') {
    return {
      ...common,
      type: 'intent.completed',
      details: { action: intent.action, asset: intent.asset, finalAmount: intent.results?.finalAmount ?? intent.amount, apy: intent.results?.apy ?? 0 },
    };
  }
  if (intent.status === 'cancelled') {
    return {
      ...common,
      type: 'intent.cancelled',
      details: { action: intent.action, asset: intent.asset, completedSteps: intent.results?.completedSteps ?? 0 },
    };
  }
  const failedStep = intent.results?.failedStep;
  return {
    ...common,
    type: 'intent.failed',
    details: {
      action: intent.action,
      code: intent.error?.code ?? 'INTERNAL_ERROR',
      message: intent.error?.message ?? 'The intent failed',
      ...(failedStep !== undefined && { failedStep }),
    },
  };
}
