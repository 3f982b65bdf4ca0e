import type { AuditEvent } from '../domain/audit';
import { newTimeOrderedId } from '../domain/ids';
import { isFinal, type Intent } from '../domain/intent';
import type { AuditLog } from '../ports/store';
import type { EngineLogger } from './engineLogger';

/**
 * The audit event of an intent's final transition (actor: the service
 * itself), or null while it is not final. Completed: what it achieved
 * (finalAmount, apy); failed: the error's code and message, and the failed
 * step when execution had started. Nothing else of the intent (no
 * transaction bytes, no error details).
 */
export function finalIntentEvent(intent: Intent): AuditEvent | null {
  if (!isFinal(intent.status)) return null;
  const common = {
    id: newTimeOrderedId('audit', Date.parse(intent.updatedAt)),
    accountId: intent.accountId,
    at: intent.updatedAt,
    actor: { type: 'system' as const, id: null },
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
    return { ...common, type: 'intent.cancelled', details: { action: intent.action, asset: intent.asset, completedSteps: intent.results?.completedSteps ?? 0 } };
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

/**
 * Appends the final transition's event; never throws. The transition is
 * persisted already and stands: a lost record is logged as a warning, not a
 * reason to disturb the intent (see src/app/audit/recordAudit.ts).
 */
export async function recordFinalIntent(log: Pick<AuditLog, 'append'> | undefined, intent: Intent, logger: EngineLogger): Promise<void> {
  const event = log ? finalIntentEvent(intent) : null;
  if (!log || !event) return;
  try {
    await log.append(event);
  } catch (err) {
    logger.warn({ err, intentId: intent.id, type: event.type }, 'audit event not recorded; the intent stands');
  }
}
