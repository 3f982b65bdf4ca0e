import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { Wallet } from '../../domain/types';
import type { CreateWalletParams } from '../../domain/schemas/wallet';
import { newId } from '../../domain/ids';
import { PLANS } from '../../domain/plans';
import { walletAlreadyExists, walletLimitExceeded } from '../../domain/errors/wallet';
import { DuplicateError } from '../../store/port';
import { tronAddressFromEvm } from '../../chain/tronAddress';
import { chainsForWallet } from './walletChains';

export type { CreateWalletParams };

/**
 * Creates the wallet of one application user: a fresh key in the vault, the
 * public address only. Rejects a second wallet for the same userId (409) and
 * a wallet beyond the plan's limit (403).
 */
export async function createWallet(
  deps: Pick<AppDeps, 'store' | 'clock' | 'keyVault'>,
  principal: Principal,
  params: CreateWalletParams,
): Promise<Wallet> {
  const { account } = principal;
  const existing = await deps.store.wallets.getByUserId(account.id, params.userId);
  if (existing) throw walletAlreadyExists(params.userId, existing.id);
  const limit = PLANS[account.plan].wallets;
  // Count-then-insert may overshoot by the number of concurrent creations; the limit is a plan quota, not a safety bound.
  if (limit !== null && (await deps.store.wallets.countByAccount(account.id)) >= limit) {
    throw walletLimitExceeded(account.plan, limit);
  }
  const id = newId('wallet');
  const evmAddress = await deps.keyVault.createKey(id);
  const wallet: Wallet = {
    id,
    accountId: account.id,
    userId: params.userId,
    address: params.chainType === 'tron' ? tronAddressFromEvm(evmAddress) : evmAddress,
    evmAddress,
    chainType: params.chainType,
    chains: chainsForWallet(account.plan, params.chainType),
    email: params.email ?? null,
    metadata: params.metadata ?? {},
    createdAt: deps.clock.now().toISOString(),
  };
  try {
    await deps.store.wallets.insert(wallet);
  } catch (e) {
    // The key was stored first (a wallet never exists without its key); its wallet did not make it, so neither does the key.
    await deps.keyVault.discardKey(id).catch(() => undefined);
    if (e instanceof DuplicateError) {
      const winner = await deps.store.wallets.getByUserId(account.id, params.userId);
      throw walletAlreadyExists(params.userId, winner?.id ?? 'unknown');
    }
    throw e;
  }
  return wallet;
}
