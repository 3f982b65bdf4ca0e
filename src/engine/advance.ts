import type { Intent } from '../domain/intent';
import { executeNext } from './executor/executeNext';
import { planIntent } from './planIntent';
import type { UnitContext } from './unitContext';

const DONE: Promise<undefined> = Promise.resolve(undefined);

/** Plans the intent and commits the plan, under the wallet's planning lease when several engines share the store. */
async function planAndCommit(intent: Intent, ctx: UnitContext): Promise<void> {
  const release = await ctx.planLock?.(intent.walletId, ctx.signal);
  try {
    await ctx.commit(await planIntent(intent, ctx));
  } finally {
    await release?.();
  }
}

/**
 * One unit of work on a non-final intent, by status: pending → planning;
 * planning → plan (executing or failed); executing → the next step or
 * sub-transaction. The intent actor calls it until the intent is final.
 * It hands back the unit's own promise (no async frame of its own: one
 * promise and one microtask hop fewer per unit); what it resolves to is
 * not for the caller.
 */
export function advance(intent: Intent, ctx: UnitContext): Promise<unknown> {
  switch (intent.status) {
    case 'pending':
      return ctx.commit(intent.cancelRequestedAt ? { type: 'cancel' } : { type: 'plan' });
    case 'planning':
      // Cancelled before a plan: nothing was signed, nothing to undo.
      return intent.cancelRequestedAt ? ctx.commit({ type: 'cancel' }) : planAndCommit(intent, ctx);
    case 'executing':
      return executeNext(intent, ctx);
    case 'completed':
    case 'failed':
    case 'cancelled':
      return DONE;
  }
}
