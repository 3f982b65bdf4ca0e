import type { ServiceError } from '../domain/errors/base';
import type { Intent } from '../domain/intent';
import { fromUnits } from '../domain/money';
import { planOn, planningError, readPlanning, reportedApy } from './planning';
import type { IntentEvent } from './stateMachine';
import type { UnitContext } from './unitContext';

export { plannerInput } from './planning';

const fail = (error: ServiceError): IntentEvent => ({ type: 'fail', error: error.toJSON() });

/**
 * Plans a planning intent: reads the wallet's holdings on its chains, the
 * rates and route fees (transient errors retried), then runs the pure
 * planner (src/engine/planning.ts, shared with the preview). Returns the
 * `execute` event, or `fail` (INSUFFICIENT_FUNDS with details, or why the
 * chains could not be read).
 */
export async function planIntent(intent: Intent, ctx: UnitContext): Promise<IntentEvent> {
  const read = await readPlanning(intent, ctx);
  if (!read.ok) return fail(read.error);
  const result = planOn(intent, read.snapshot);
  if (!result.ok) return fail(await planningError(intent, ctx, read.snapshot, result.error));
  return { type: 'execute', plan: result.plan, amount: fromUnits(result.amount, intent.asset), apy: reportedApy(result.apy) };
}
