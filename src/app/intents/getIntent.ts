import type { AppDeps } from '../deps';
import { mayRead, type Principal } from '../accounts/principal';
import { intentNotFound } from '../../domain/errors/intent';
import type { Intent } from '../../domain/intent';

/** GET /intents/:intentId: the caller's intent; unknown ids and other accounts' intents are both 404 INTENT_NOT_FOUND. */
export async function getIntent(deps: Pick<AppDeps, 'store'>, principal: Principal, intentId: string): Promise<Intent> {
  const intent = await deps.store.intents.get(intentId);
  if (intent === null || !mayRead(principal, intent.accountId)) throw intentNotFound(intentId);
  return intent;
}
