import type { AppDeps } from '../deps';
import { mayRead, type Principal } from '../accounts/principal';
import type { Wallet } from '../../domain/types';
import { walletNotFound } from '../../domain/errors/wallet';

/** A wallet by the application's userId, within the caller's account. */
export async function getWalletByUserId(deps: Pick<AppDeps, 'store'>, principal: Principal, userId: string): Promise<Wallet> {
  const w = await deps.store.wallets.getByUserId(principal.account.id, userId);
  if (!w) throw walletNotFound({ userId });
  return w;
}

/** A wallet by its id; other accounts' wallets are reported as not found. */
export async function getWalletById(deps: Pick<AppDeps, 'store'>, principal: Principal, walletId: string): Promise<Wallet> {
  const w = await deps.store.wallets.getById(walletId);
  if (!w || !mayRead(principal, w.accountId)) throw walletNotFound({ walletId });
  return w;
}
