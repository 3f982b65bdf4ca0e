import type { Intent, IntentStatus } from '../domain/intent';
import type { IntentRepo } from '../ports/store';
import type { EngineLogger } from './engineLogger';

// Intents already spending funds resume first, so a later intent of the same wallet never plans on funds in flight.
const RESUME_ORDER: Partial<Record<IntentStatus, number>> = { executing: 0, planning: 1, pending: 2 };

/** Non-final intents in the order to resume them: executing, then planning, then pending; each oldest first. */
export function resumeOrder(intents: readonly Intent[]): Intent[] {
  return [...intents].sort(
    (a, b) =>
      (RESUME_ORDER[a.status] ?? 3) - (RESUME_ORDER[b.status] ?? 3) ||
      (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * Recovery at engine start (docs/architecture.md): every non-final intent is handed back
 * to the engine (which skips those another live engine holds the lease of). pending and planning intents (re)plan; executing ones carry
 * on at their first unfinished sub-transaction, resuming a persisted hash
 * from its receipt (rebroadcast when unknown), never signing it again.
 */
export async function recoverIntents(
  repo: Pick<IntentRepo, 'listNonFinal'>,
  submit: (intent: Intent) => Promise<boolean>,
  logger: EngineLogger,
): Promise<number> {
  const open = resumeOrder(await repo.listNonFinal());
  let resumed = 0;
  // submit is false for an intent another live engine holds (several instances): that engine runs it.
  for (const intent of open) if (await submit(intent)) resumed++;
  if (resumed > 0) logger.info({ count: resumed, open: open.length }, 'resuming non-final intents');
  return resumed;
}
