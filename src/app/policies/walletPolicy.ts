import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { Policy } from '../../domain/policy';
import type { Wallet } from '../../domain/types';
import { parseInput } from '../../domain/schemas/parse';
import { setWalletPolicySchema } from '../../domain/schemas/policy';
import { invalidRequest } from '../../domain/errors/request';
import { policyNotFound } from '../../domain/errors/policy';
import { getWalletById } from '../wallets/getWallet';
import { toWalletView, type WalletView } from '../wallets/walletView';
import { ownPolicy } from './managePolicies';
import { actorOf, recordAudit } from '../audit/recordAudit';

/**
 * The policy that governs a wallet (docs/decisions.md): its own, else its account's
 * one account-scope policy, else none. A wallet whose own policy cannot be
 * found is governed by nothing it could be allowed under: it fails closed.
 */
export async function effectivePolicy(deps: Pick<AppDeps, 'store'>, wallet: Wallet): Promise<Policy | null> {
  if (wallet.policyId) {
    const own = await deps.store.policies.get(wallet.policyId);
    if (!own || own.accountId !== wallet.accountId) throw policyNotFound(wallet.policyId);
    return own;
  }
  return deps.store.policies.accountPolicy(wallet.accountId);
}

/** The caller's wallet-scope policy `policyId` (a wallet's own policy must be one), else POLICY_NOT_FOUND or INVALID_REQUEST. */
export async function assertWalletPolicy(deps: Pick<AppDeps, 'store'>, principal: Principal, policyId: string): Promise<Policy> {
  const policy = await ownPolicy(deps, principal, policyId);
  if (policy.scope !== 'wallet') {
    throw invalidRequest([
      { path: 'policyId', message: 'an account-scope policy already governs every wallet without its own: set a wallet-scope policy here' },
    ]);
  }
  return policy;
}

/** PUT /wallets/:walletId/policy `{ policyId }`: the wallet's own policy (a wallet-scope policy of the account). 200 with the wallet. */
export async function setWalletPolicy(
  deps: Pick<AppDeps, 'store' | 'clock'> & Partial<Pick<AppDeps, 'logger'>>,
  principal: Principal,
  walletId: string,
  body: unknown,
): Promise<WalletView> {
  const { policyId } = parseInput(setWalletPolicySchema, body);
  const wallet = await getWalletById(deps, principal, walletId);
  const policy = await assertWalletPolicy(deps, principal, policyId);
  await deps.store.wallets.setPolicy(wallet.id, policy.id);
  await recordAudit(deps, {
    accountId: wallet.accountId,
    type: 'wallet.policy_set',
    actor: actorOf(principal),
    subject: { walletId: wallet.id, policyId: policy.id },
    details: { previousPolicyId: wallet.policyId ?? null, version: policy.version },
  });
  return { ...toWalletView({ ...wallet, policyId: policy.id }) };
}

/** DELETE /wallets/:walletId/policy: 204; the account policy (if any) governs it again. */
export async function removeWalletPolicy(
  deps: Pick<AppDeps, 'store' | 'clock'> & Partial<Pick<AppDeps, 'logger'>>,
  principal: Principal,
  walletId: string,
): Promise<void> {
  const wallet = await getWalletById(deps, principal, walletId);
  await deps.store.wallets.setPolicy(wallet.id, null);
  if (wallet.policyId) {
    await recordAudit(deps, {
      accountId: wallet.accountId,
      type: 'wallet.policy_removed',
      actor: actorOf(principal),
      subject: { walletId: wallet.id, policyId: wallet.policyId },
      details: {},
    });
  }
}
