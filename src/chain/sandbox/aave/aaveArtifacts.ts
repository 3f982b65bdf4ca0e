import { getAddress, type Abi, type Address, type Hex } from 'viem';

/** `{ sourceFile: { libraryName: [{ start, length }] } }`: where a library's address goes in the bytecode (byte offsets). */
export type LinkReferences = Record<string, Record<string, readonly { start: number; length: number }[]>>;

/** A Hardhat artifact as `@aave/core-v3` ships it. */
export interface AaveArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  linkReferences: LinkReferences;
  deployedLinkReferences: LinkReferences;
}

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

/** Library names `code` needs, e.g. `['BorrowLogic', …]`. */
export function librariesOf(references: LinkReferences): string[] {
  return Object.values(references).flatMap((byName) => Object.keys(byName));
}

/**
 * `code` with every library placeholder (`__$…$__`) replaced by the
 * library's address at the offsets the artifact names; fails on a missing
 * library or a placeholder that is not where the reference says.
 */
export function linkBytecode(code: Hex, references: LinkReferences, libraries: Readonly<Record<string, Address>>): Hex {
  let hex = code.slice(2);
  for (const byName of Object.values(references)) {
    for (const [name, offsets] of Object.entries(byName)) {
      const address = libraries[name];
      if (!address) throw new Error(`linkBytecode: no address for library ${name}`);
      const body = getAddress(address).slice(2).toLowerCase();
      for (const { start, length } of offsets) {
        const at = start * 2;
        if (length !== 20 || !hex.startsWith('__$', at)) throw new Error(`linkBytecode: no placeholder for ${name} at byte ${start}`);
        hex = hex.slice(0, at) + body + hex.slice(at + 40);
      }
    }
  }
  return `0x${hex}`;
}
