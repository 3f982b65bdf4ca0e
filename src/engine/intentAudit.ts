import type { AuditActor } from '../domain/audit';
import type { Intent } from '../domain/intent';
import { finalIntentEvent } from '../domain/intentAuditEvent';
import type { AuditLog } from '../ports/store';
import type { EngineLogger } from './engineLogger';

/**
 * Appends the final transition's event; never throws. The transition is
 * persisted already and stands: a lost record is logged as a warning, not a
 * reason to disturb the intent (see src/app/audit/recordAudit.ts).
 */
export async function recordFinalIntent(log: Pick<AuditLog, 'append'> | undefined, intent: Intent, logger: EngineLogger, actor?: AuditActor): Promise<void> {
  const event = log ? finalIntentEvent(intent, actor) : null;
  if (!log || !event) return;
  try {
    await log.append(event);
  } catch (err) {
    logger.warn({ err, intentId: intent.id, type: event.type }, 'audit event not recorded; the intent stands');
  }
}
