import type { Address, Hex } from 'viem';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { FundDemoParams } from '../../domain/schemas/funding';
import { toUnits } from '../../domain/money';
import { fundingLimitExceeded } from '../../domain/errors/wallet';
import { invalidChain } from '../../domain/errors/chain';
import { getWalletById } from '../wallets/getWallet';
import { invalidateWalletHoldings } from '../caches';

/** SPEC: always 1 USDC on arbitrum-sepolia. */
export const DEMO_FUND = { chain: 'arbitrum-sepolia', asset: 'USDC', amount: '1' } as const;
export const FUNDING_LIMIT = { perWallet: 10, windowHours: 24 } as const;

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
  const windowMs = FUNDING_LIMIT.windowHours * 3600_000;
  const now = deps.clock.now().getTime();
  const windowStart = now - (now % windowMs);
  const counterKey = `fund:${wallet.id}:${windowStart}`;
  const used = await deps.store.usage.increment(counterKey, 1, new Date(windowStart + windowMs));
  if (used > FUNDING_LIMIT.perWallet) {
    await deps.store.usage.increment(counterKey, -1, new Date(windowStart + windowMs));
    throw fundingLimitExceeded(FUNDING_LIMIT.perWallet, FUNDING_LIMIT.windowHours, Math.ceil((windowStart + windowMs - now) / 1000));
  }
  try {
    const signed = await deps.chains.send(
      'faucet',
      { kind: 'transfer', chain: DEMO_FUND.chain, asset: DEMO_FUND.asset, to: wallet.evmAddress as Address, amount: toUnits(DEMO_FUND.amount, DEMO_FUND.asset) },
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
    await deps.store.usage.increment(counterKey, -1, new Date(windowStart + windowMs));
    throw e;
  }
}
