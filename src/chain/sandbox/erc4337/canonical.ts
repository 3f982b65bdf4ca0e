import type { Address, Hex } from 'viem';
import type { HardhatArtifact } from '../hardhatArtifact';

/**
 * ERC-4337 v0.8 as the public networks have it: EntryPoint and its
 * EIP-7702 delegate Simple7702Account, both created through Arachnid's
 * deterministic deployer (CREATE2) from `@account-abstraction/contracts`
 * 0.8.0's artifacts, so every chain has them at the same addresses.
 */
export const ERC4337_V08 = {
  entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  delegate: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
} as const satisfies Record<string, Address>;

/** Arachnid's deterministic deployment proxy: calldata is salt (32 bytes) ++ init code; it CREATE2s and returns the address. */
export const ARACHNID_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
/** Its runtime code (the same on every chain that has it). */
export const ARACHNID_DEPLOYER_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';

/** The salts the canonical deployment used. */
export const ERC4337_SALTS = {
  entryPoint: '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9',
  delegate: '0x0000000000000000000000000000000000000000000000000000000000000000',
} as const satisfies Record<string, Hex>;

/** The `@account-abstraction/contracts` artifacts the sandbox and the service use. */
export type Erc4337ArtifactName = 'EntryPoint' | 'Simple7702Account' | 'SenderCreator';

/** A Hardhat artifact of `@account-abstraction/contracts` (no libraries to link). */
export function erc4337Artifact(name: Erc4337ArtifactName): HardhatArtifact {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`@account-abstraction/contracts/artifacts/${name}.json`) as HardhatArtifact;
}
