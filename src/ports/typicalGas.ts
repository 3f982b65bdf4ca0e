import type { TxKind } from './chain';

/**
 * Gas one transaction of each kind uses on the sandbox devnets (receipts of
 * executed intents, measured with the contracts of contracts/; see
 * test/e2e/intentPreview.test.ts). Used where a transaction cannot be
 * estimated before it is sent (a CCTP mint needs the attestation of its
 * burn), and to price the steps of every candidate market when lends are
 * ranked by net return (`optimize: netReturn`).
 */
export const TYPICAL_GAS: Readonly<Record<TxKind, bigint>> = {
  approve: 46_200n, // measured 46,199 (an allowance from 0)
  revoke: 24_500n,
  supply: 98_800n, // measured 98,754 (aave-v3)
  withdraw: 60_000n,
  burn: 72_300n, // measured 72,280
  mint: 138_300n, // measured 138,232 (the wallet's first USDC on the destination)
  transfer: 52_000n,
};
