import { type Account, type Address, type Chain, type Hash, type PublicClient, type Transport, type WalletClient } from 'viem';
import { sandboxRateStrategyAbi, sandboxTokenAbi } from '../abis';
import { apyPercentToAaveRay } from '../../apy';
import { RAY } from '../initialState';
import { aaveArtifact } from './aaveArtifacts';
import { readReserve } from './readReserve';

export interface SetSupplyApyParameters {
  publicClient: PublicClient<Transport, Chain | undefined>;
  /** The rate strategy's owner (the deployer), holding a little of `asset` and an allowance to the pool (deployAaveMarket gives it one). */
  walletClient: WalletClient<Transport, Chain | undefined, Account>;
  market: { pool: Address; rateStrategy: Address };
  asset: Address;
  apyPercent: number;
}

export interface SetSupplyApyResult {
  /** The reserve's `currentLiquidityRate` (ray APR) once both transactions are mined. */
  liquidityRate: bigint;
  txHashes: Hash[];
}

/**
 * Sets the supply APY of one reserve of a real Aave v3 Pool: the sandbox rate
 * strategy gets the target (ray APR, `apyPercentToAaveRay`), then the deployer
 * supplies a few atomic units so the Pool recomputes the reserve's rates at
 * once. Nothing cheaper does on 1.19: `setReserveInterestRateStrategyAddress`
 * only stores the address, and the rates are written only by the Pool's own
 * actions (supply, withdraw, borrow, repay, flash loan…). The rate is reached
 * only while the reserve has borrowers (without debt it is 0).
 */
export async function setSupplyApy(p: SetSupplyApyParameters): Promise<SetSupplyApyResult> {
  const { publicClient, walletClient, market, asset } = p;
  const account = walletClient.account;
  const chain = walletClient.chain;
  const { liquidityIndex } = await readReserve(publicClient, market.pool, asset);
  // The aToken mints amount / index (ray, rounded half up) and refuses 0: at least one unit per whole index.
  const pokeAmount = liquidityIndex / RAY + 1n;
  const [balance, allowance] = await Promise.all([
    publicClient.readContract({ address: asset, abi: sandboxTokenAbi, functionName: 'balanceOf', args: [account.address] }),
    publicClient.readContract({ address: asset, abi: sandboxTokenAbi, functionName: 'allowance', args: [account.address, market.pool] }),
  ]);
  if (balance < pokeAmount || allowance < pokeAmount) {
    throw new Error(`setSupplyApy: ${account.address} needs ${pokeAmount} units of ${asset} and an allowance to the pool to make the reserve take the rate`);
  }
  const target = await walletClient.writeContract({
    account,
    chain,
    address: market.rateStrategy,
    abi: sandboxRateStrategyAbi,
    functionName: 'setTargetLiquidityRate',
    args: [asset, apyPercentToAaveRay(p.apyPercent)],
  });
  // Sent without waiting: same sender, next nonce, so it is mined after the target is set.
  const poke = await walletClient.writeContract({
    account,
    chain,
    address: market.pool,
    abi: aaveArtifact('Pool').abi,
    functionName: 'supply',
    args: [asset, pokeAmount, account.address, 0],
    gas: 1_000_000n,
  });
  for (const hash of [target, poke]) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`setSupplyApy: transaction ${hash} reverted`);
  }
  const { currentLiquidityRate } = await readReserve(publicClient, market.pool, asset);
  return { liquidityRate: currentLiquidityRate, txHashes: [target, poke] };
}
