import { encodeFunctionData, erc20Abi, type Address } from 'viem';
import type { ChainDeployment, ManifestMarket } from '../../ports/deploymentManifest';
import type { Call, LendingProtocolModule } from './types';

/** ERC-20 approve(spender, amount) of `token` (amount 0: a revoke). */
export const approveCall = (token: Address, spender: Address, amount: bigint): Call => ({
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
});

/** The calls of a deposit of `amount` into the market: approve of the protocol's spender, then the supply. */
export function supplyCalls(p: LendingProtocolModule, d: ChainDeployment, m: ManifestMarket, amount: bigint, onBehalfOf: Address): Call[] {
  return [approveCall(m.token, p.spender(d, m), amount), p.supplyCall(d, m, amount, onBehalfOf)];
}

/** The calls of a withdraw of `amount` (or everything) from the market to `to`. */
export function withdrawCalls(p: LendingProtocolModule, d: ChainDeployment, m: ManifestMarket, amount: bigint | 'max', to: Address): Call[] {
  return [p.withdrawCall(d, m, amount, to)];
}
