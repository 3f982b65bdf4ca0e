import type { AppDeps } from '../deps';
import { hasSignedTransaction, type Intent } from '../../domain/intent';
import { releaseReservation } from '../policies/decideIntent';
import { settleGasReservation } from './gasBudget';

/**
 * What a final intent gives back of what admission reserved, whoever made it
 * final (the engine, on its own or at a client's cancel): its gas reservation
 * always (its actual gas is counted receipt by receipt), and its share of the
 * wallet's daily spending cap when it failed or was cancelled before signing
 * anything (it moved nothing).
 */
export async function settleFinalIntent(deps: Pick<AppDeps, 'store'>, intent: Intent): Promise<void> {
  const movedNothing = (intent.status === 'failed' || intent.status === 'cancelled') && !hasSignedTransaction(intent);
  await Promise.all([movedNothing ? releaseReservation(deps, intent.policy) : undefined, settleGasReservation(deps.store.usage, intent)]);
}
