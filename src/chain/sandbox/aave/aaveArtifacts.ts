import { linkBytecode, librariesOf, type HardhatArtifact, type LinkReferences } from '../hardhatArtifact';

// Linking lives with the artifacts of every protocol package.
export { linkBytecode, librariesOf, type LinkReferences };

/** A Hardhat artifact as `@aave/core-v3` ships it. */
export type AaveArtifact = HardhatArtifact;

/** The `@aave/core-v3` contracts the sandbox deploys, by artifact path under `artifacts/contracts/`. */
export const AAVE_ARTIFACT_PATHS = {
  PoolAddressesProvider: 'protocol/configuration/PoolAddressesProvider.sol/PoolAddressesProvider.json',
  ACLManager: 'protocol/configuration/ACLManager.sol/ACLManager.json',
  SupplyLogic: 'protocol/libraries/logic/SupplyLogic.sol/SupplyLogic.json',
  BorrowLogic: 'protocol/libraries/logic/BorrowLogic.sol/BorrowLogic.json',
  LiquidationLogic: 'protocol/libraries/logic/LiquidationLogic.sol/LiquidationLogic.json',
  EModeLogic: 'protocol/libraries/logic/EModeLogic.sol/EModeLogic.json',
  BridgeLogic: 'protocol/libraries/logic/BridgeLogic.sol/BridgeLogic.json',
  PoolLogic: 'protocol/libraries/logic/PoolLogic.sol/PoolLogic.json',
  FlashLoanLogic: 'protocol/libraries/logic/FlashLoanLogic.sol/FlashLoanLogic.json',
  ConfiguratorLogic: 'protocol/libraries/logic/ConfiguratorLogic.sol/ConfiguratorLogic.json',
  Pool: 'protocol/pool/Pool.sol/Pool.json',
  L2Pool: 'protocol/pool/L2Pool.sol/L2Pool.json',
  PoolConfigurator: 'protocol/pool/PoolConfigurator.sol/PoolConfigurator.json',
  AaveOracle: 'misc/AaveOracle.sol/AaveOracle.json',
  AaveProtocolDataProvider: 'misc/AaveProtocolDataProvider.sol/AaveProtocolDataProvider.json',
  AToken: 'protocol/tokenization/AToken.sol/AToken.json',
  VariableDebtToken: 'protocol/tokenization/VariableDebtToken.sol/VariableDebtToken.json',
  StableDebtToken: 'protocol/tokenization/StableDebtToken.sol/StableDebtToken.json',
} as const;

export type AaveContractName = keyof typeof AAVE_ARTIFACT_PATHS;

/**
 * The installed package's artifact, read at run time: the repository carries
 * none of Aave's code, the sandbox runs whatever `@aave/core-v3` version is installed.
 */
export function aaveArtifact(name: AaveContractName): AaveArtifact {
  // A JSON path chosen at run time: a static import would make tsc type every artifact.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`@aave/core-v3/artifacts/contracts/${AAVE_ARTIFACT_PATHS[name]}`) as AaveArtifact;
}

/** The installed `@aave/core-v3` version (the deployment reports what it ran). */
export function aaveCoreVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('@aave/core-v3/package.json') as { version: string }).version;
}
