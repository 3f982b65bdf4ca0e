import type { ChainName } from '../../domain/chains';

/** SANDBOX_TIMING: `instant` (one block per transaction, attestations in milliseconds) or `testnets` (the test networks' pace). */
export const SANDBOX_TIMINGS = ['instant', 'testnets'] as const;
export type SandboxTiming = (typeof SANDBOX_TIMINGS)[number];

/** Per CCTP finality level: fast (minFinalityThreshold ≤ 1000) and standard. */
export interface PerFinality<T> {
  fast: T;
  standard: T;
}

/**
 * The test networks' block times (ms): Ethereum Sepolia's 12 s slots, Base
 * Sepolia's 2 s (OP Stack), Arbitrum Sepolia's 250 ms (the sequencer's
 * default block time). A mainnet's sandbox chain runs at its testnet's pace.
 */
export const TESTNET_BLOCK_TIME_MS: Readonly<Record<ChainName, number>> = {
  'ethereum-sepolia': 12_000,
  'base-sepolia': 2_000,
  'arbitrum-sepolia': 250,
  ethereum: 12_000,
  base: 2_000,
  arbitrum: 250,
};

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
/**
 * Standard transfers wait for hard finality: about 65 Ethereum blocks. Circle
 * gives "~13 to 19 minutes" for Ethereum and, as they settle on Ethereum,
 * for Arbitrum and Base alike; the sandbox takes the low end (65 × 12 s).
 */
const HARD_FINALITY_MS = 13 * MINUTE;

/**
 * How long after a burn is mined Circle's attestation service (Iris) answers
 * it, per source chain (ms). Source: Circle's developer docs, "CCTP →
 * Finality and block confirmations" (developers.circle.com/cctp/concepts/
 * finality-and-block-confirmations): Fast Transfer, Ethereum 2 blocks ≈ 20 s,
 * Arbitrum and Base 1 block ≈ 8 s; Standard Transfer ≈ 13 to 19 minutes from
 * all three (hard finality on Ethereum).
 */
export const TESTNET_ATTESTATION_DELAY_MS: Readonly<Record<ChainName, PerFinality<number>>> = {
  'ethereum-sepolia': { fast: 20 * SECOND, standard: HARD_FINALITY_MS },
  'base-sepolia': { fast: 8 * SECOND, standard: HARD_FINALITY_MS },
  'arbitrum-sepolia': { fast: 8 * SECOND, standard: HARD_FINALITY_MS },
  ethereum: { fast: 20 * SECOND, standard: HARD_FINALITY_MS },
  base: { fast: 8 * SECOND, standard: HARD_FINALITY_MS },
  arbitrum: { fast: 8 * SECOND, standard: HARD_FINALITY_MS },
};

/** A sandbox's mining and attestation pace, per chain (absent chain: instant). */
export interface SandboxPace {
  /** Interval mining after deployment, ms per block (whole milliseconds, at least 1). */
  blockTimeMs: Partial<Record<ChainName, number>>;
  /** How long the attestation service keeps a burn from this source chain pending. */
  attestationDelayMs: Partial<Record<ChainName, PerFinality<number>>>;
}

/** A whole number of milliseconds, at least 1: Hardhat's interval mining takes whole milliseconds and 0 would mean automine. */
const scaled = (ms: number, speed: number): number => Math.max(1, Math.round(ms / speed));

/** The test networks' pace for `chains`, `speed` times faster (speed ≥ 1: ×10 divides every block time and delay by 10). */
export function testnetPace(chains: readonly ChainName[], speed = 1): SandboxPace {
  if (!(Number.isFinite(speed) && speed >= 1)) throw new Error(`sandbox speed must be a number ≥ 1, got ${speed}`);
  const pace: SandboxPace = { blockTimeMs: {}, attestationDelayMs: {} };
  for (const chain of chains) {
    pace.blockTimeMs[chain] = scaled(TESTNET_BLOCK_TIME_MS[chain], speed);
    const d = TESTNET_ATTESTATION_DELAY_MS[chain];
    pace.attestationDelayMs[chain] = { fast: scaled(d.fast, speed), standard: scaled(d.standard, speed) };
  }
  return pace;
}

/**
 * How long a sent transaction may wait unmined before it counts as stuck
 * (rebroadcast after one period, replaced after two) at `pace`: 2.5 blocks of
 * its slowest chain, so a healthy transaction waiting for its next block is
 * never replaced; at least `floorMs`.
 */
export function stuckAfterMsAt(pace: SandboxPace, floorMs: number): number {
  const slowest = Math.max(0, ...Object.values(pace.blockTimeMs));
  return Math.max(floorMs, Math.ceil(2.5 * slowest));
}
