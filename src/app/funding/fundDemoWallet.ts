import type { Address, Hex } from 'viem';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { FundDemoParams } from '../../domain/schemas/funding';
import { toUnits } from '../../domain/money';
import { fundingLimitExceeded } from '../../domain/errors/wallet';
import { invalidChain } from '../../domain/errors/chain';
import { getWalletById } from '../wallets/getWallet';
import { invalidateWalletHoldings } from '../caches';
import { takeFromBudget, type RollingBudget } from '../budgets/rollingWindow';

/** the API: always 1 USDC on arbitrum-sepolia. */
export const DEMO_FUND = { chain: 'arbitrum-sepolia', asset: 'USDC', amount: '1' } as const;
/** docs/decisions.md: at most 10 per wallet and 50 per account in any rolling 24 h (counted in hourly buckets). */
export const FUNDING_LIMIT = { perWallet: 10, perAccount: 50, windowHours: 24 } as const;

const fundingBudget = (scope: 'wallet' | 'account', id: string, limit: number): RollingBudget => ({
  key: `fund:${scope}:${id}`,
  limit,
  windowMs: FUNDING_LIMIT.windowHours * 3600_000,
  bucketMs: 3600_000,
});

export interface FundingReceipt {
  walletId: string;
  chain: typeof DEMO_FUND.chain;
  asset: typeof DEMO_FUND.asset;
  amount: string;
  txHash: Hex;
  status: 'submitted';
  warnings?: string[];
}

/**
 * Sends 1 test USDC from the faucet to the wallet on arbitrum-sepolia and
 * answers once the transaction is broadcast (funds land shortly after).
 */
export async function fundDemoWallet(
  deps: Pick<AppDeps, 'store' | 'clock' | 'chains' | 'caches'>,
  principal: Principal,
  params: FundDemoParams,
): Promise<FundingReceipt> {
  const wallet = await getWalletById(deps, principal, params.walletId);
  if (!wallet.chains.includes(DEMO_FUND.chain) || !deps.chains.chains.includes(DEMO_FUND.chain)) {
    throw invalidChain(DEMO_FUND.chain, { reason: 'demo funding needs a wallet on the arbitrum-sepolia test network' });
  }
  // The shared faucet is budgeted per wallet and per account; a refusal by either takes nothing from the other.
  const now = deps.clock.now().getTime();
  const perWallet = await takeFromBudget(deps.store.usage, fundingBudget('wallet', wallet.id, FUNDING_LIMIT.perWallet), 1, now);
  if (!perWallet.ok) throw fundingLimitExceeded('wallet', FUNDING_LIMIT.perWallet, FUNDING_LIMIT.windowHours, perWallet.retryAfterSeconds);
  const perAccount = await takeFromBudget(deps.store.usage, fundingBudget('account', principal.account.id, FUNDING_LIMIT.perAccount), 1, now);
  if (!perAccount.ok) {
    await perWallet.giveBack();
    throw fundingLimitExceeded('account', FUNDING_LIMIT.perAccount, FUNDING_LIMIT.windowHours, perAccount.retryAfterSeconds);
  }
  try {
    const signed = await deps.chains.send(
      'faucet',
      {
        kind: 'transfer',
        chain: DEMO_FUND.chain,
        asset: DEMO_FUND.asset,
        to: wallet.evmAddress as Address,
        amount: toUnits(DEMO_FUND.amount, DEMO_FUND.asset),
      },
      async () => {},
    );
    invalidateWalletHoldings(deps.caches, wallet.id);
    const warnings = (['chain', 'amount'] as const)
      .filter((k) => params[k] !== undefined)
      .map((k) => `${k} is ignored: demo funding always sends ${DEMO_FUND.amount} ${DEMO_FUND.asset} on ${DEMO_FUND.chain}`);
    return {
      walletId: wallet.id,
      ...DEMO_FUND,
      txHash: signed.txHash,
      status: 'submitted',
      ...(warnings.length ? { warnings } : {}),
    };
  } catch (e) {
    await Promise.all([perWallet.giveBack(), perAccount.giveBack()]);
    throw e;
  }
}
