import type { Address, Chain, PublicClient, Transport } from 'viem';
import { aaveArtifact } from './aaveArtifacts';

/** `IPool.getReserveData` of `@aave/core-v3` 1.19 (`DataTypes.ReserveData`), fields in ABI order. */
export interface AaveReserveData {
  configuration: { data: bigint };
  liquidityIndex: bigint;
  currentLiquidityRate: bigint;
  variableBorrowIndex: bigint;
  currentVariableBorrowRate: bigint;
  currentStableBorrowRate: bigint;
  lastUpdateTimestamp: number;
  id: number;
  aTokenAddress: Address;
  stableDebtTokenAddress: Address;
  variableDebtTokenAddress: Address;
  interestRateStrategyAddress: Address;
  accruedToTreasury: bigint;
  unbacked: bigint;
  isolationModeTotalDebt: bigint;
}

/** A reserve's state read with the installed package's own Pool ABI. */
export async function readReserve(publicClient: PublicClient<Transport, Chain | undefined>, pool: Address, asset: Address): Promise<AaveReserveData> {
  return (await publicClient.readContract({
    address: pool,
    abi: aaveArtifact('Pool').abi,
    functionName: 'getReserveData',
    args: [asset],
  })) as AaveReserveData;
}
