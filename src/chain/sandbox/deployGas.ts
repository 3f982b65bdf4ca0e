import type { Account, Chain, Transport, WalletClient } from 'viem';
import { deployContract, writeContract } from 'viem/actions';

/**
 * Gas limits of the sandbox's own deployment transactions, instead of
 * estimates. A devnet gives a block the wall clock's second, so a transaction
 * estimated in one second may be mined in the next, and a contract that
 * accrues interest per elapsed second (Aave's reserves, the Comet) then needs
 * more gas than it was estimated at: out of gas, a deployment failed. Gas
 * costs nothing on a devnet; these fit every sandbox transaction and stay far
 * under the block gas limit (30M).
 */
export const SANDBOX_WRITE_GAS = 3_000_000n;
export const SANDBOX_DEPLOY_GAS = 12_000_000n;

/** `client` whose writes and deployments (also through getContract) send with the fixed limits unless given one. */
export function withDeployGas<C extends WalletClient<Transport, Chain, Account>>(client: C): C {
  return client.extend((c) => ({
    writeContract: ((args: Parameters<typeof writeContract>[1]) =>
      writeContract(c, { gas: SANDBOX_WRITE_GAS, ...args } as never)) as unknown as C['writeContract'],
    deployContract: ((args: Parameters<typeof deployContract>[1]) =>
      deployContract(c, { gas: SANDBOX_DEPLOY_GAS, ...args } as never)) as unknown as C['deployContract'],
  })) as unknown as C;
}
