import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { Wallet } from '../../domain/types';
import type { CreateWalletParams } from '../../domain/schemas/wallet';
import { newId } from '../../domain/ids';
import { walletAlreadyExists } from '../../domain/errors/wallet';
import { DuplicateError } from '../../ports/store';
import { tronAddressFromEvm } from '../../domain/tronAddress';
import { chainsForWallet } from './walletChains';
import { takeWalletSlot } from './walletSlots';
import { assertWalletPolicy } from '../policies/walletPolicy';

export type { CreateWalletParams };

/**
 * Creates the wallet of one application user: a fresh key in the vault, the
 * public address only. Rejects a second wallet for the same userId (409) and
 * a wallet beyond the plan's limit (403), exactly, however many creations
 * run at once (takeWalletSlot).
 */
export async function createWallet(
  deps: Pick<AppDeps, 'store' | 'clock' | 'keyVault' | 'environment'>,
  principal: Principal,
  params: CreateWalletParams,
): Promise<Wallet> {
  const { account } = principal;
  const existing = await deps.store.wallets.getByUserId(account.id, params.userId);
  if (existing) throw walletAlreadyExists(params.userId, existing.id);
  // A policy named at creation must be one of the account's wallet-scope policies, checked before anything is made.
  if (params.policyId !== undefined) await assertWalletPolicy(deps, principal, params.policyId);
  // The plan's limit is taken as a slot before anything is made: a refused creation leaves no key behind.
  const slot = await takeWalletSlot(deps, account);
  const id = newId('wallet');
  let wallet: Wallet;
  try {
    const evmAddress = await deps.keyVault.createKey(id);
    wallet = {
      id,
      accountId: account.id,
      userId: params.userId,
      address: params.chainType === 'tron' ? tronAddressFromEvm(evmAddress) : evmAddress,
      evmAddress,
      chainType: params.chainType,
      chains: chainsForWallet(account.plan, params.chainType, deps.environment),
      email: params.email ?? null,
      metadata: params.metadata ?? {},
      ...(params.policyId !== undefined && { policyId: params.policyId }),
      createdAt: deps.clock.now().toISOString(),
    };
  } catch (e) {
    await slot.release().catch(() => undefined);
    throw e;
  }
  try {
    await deps.store.wallets.insert(wallet);
  } catch (e) {
    // The key was stored first (a wallet never exists without its key); its wallet did not make it, so neither does the key, nor its slot.
    await Promise.all([deps.keyVault.discardKey(id).catch(() => undefined), slot.release().catch(() => undefined)]);
    if (e instanceof DuplicateError) {
      const winner = await deps.store.wallets.getByUserId(account.id, params.userId);
      throw walletAlreadyExists(params.userId, winner?.id ?? 'unknown');
    }
    throw e;
  }
  return wallet;
}
