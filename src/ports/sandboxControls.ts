import type { Address, Hex } from 'viem';
import type { ChainName, TokenAsset } from '../domain/chains';
import type { FaultKind, FaultRegistry } from '../domain/sandboxFaults';
import type { Protocol } from './chain';

/** Sandbox-only controls behind /admin/sandbox: rates, minting, faults, time. */
export interface SandboxControls {
  setRate(p: { chain: ChainName; protocol: Protocol; asset: TokenAsset; apy: number }): Promise<{ txHash: Hex }>;
  mint(p: { chain: ChainName; asset: TokenAsset; address: Address; amount: bigint }): Promise<{ txHash: Hex }>;
  registerFault(p: { chain: ChainName; kind: FaultKind; count: number }): void;
  /** The pending faults; the store consults it for `store-error`. */
  readonly faults: FaultRegistry;
  /**
   * The devnet mines nothing for `seconds` (transactions wait in its mempool),
   * then resumes its usual mining and mines what waits. A second stall of the
   * same chain replaces the first's end.
   */
  stall(chain: ChainName, seconds: number): Promise<{ resumesAt: string }>;
  /** Moves the devnet clock forward and mines a block (interest accrues). */
  increaseTime(chain: ChainName, seconds: number): Promise<void>;
}
