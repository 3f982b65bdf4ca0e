import type { Intent } from '../domain/intent';
import { executeNext } from './executor/executeNext';
import { planIntent } from './planIntent';
import type { UnitContext } from './unitContext';

/**
 * One unit of work on a non-final intent, by status: pending → planning;
 * planning → plan (executing or failed); executing → the next step or
 * sub-transaction. The intent actor calls it until the intent is final.
 */
export async function advance(intent: Intent, ctx: UnitContext): Promise<void> {
  switch (intent.status) {
    case 'pending':
      await ctx.commit(intent.cancelRequestedAt ? { type: 'cancel' } : { type: 'plan' });
      return;
    case 'planning':
      // Cancelled before a plan: nothing was signed, nothing to undo.
      if (intent.cancelRequestedAt) {
        await ctx.commit({ type: 'cancel' });
        return;
      }
      {
        const release = await ctx.planLock?.(intent.walletId, ctx.signal);
        try {
          await ctx.commit(await planIntent(intent, ctx));
        } finally {
          await release?.();
        }
      }
      return;
    case 'executing':
      await executeNext(intent, ctx);
      return;
    case 'completed':
    case 'failed':
    case 'cancelled':
      return;
  }
}
