import type { TxKind } from './chain';

/**
 * Gas one transaction of each kind uses on the sandbox devnets, which run
 * Circle's FiatTokenV2_2, Aave v3's own Pool and our CCTP v2 contracts
 * (receipts of executed intents: test/e2e/intentPreview.test.ts prints them).
 * Used where a transaction cannot be estimated before it is sent (a CCTP
 * mint needs the attestation of its burn), as the first bound of a simulated
 * estimate, and to price the steps of every candidate market when lends are
 * ranked by net return (`optimize: netReturn`).
 */
export const TYPICAL_GAS: Readonly<Record<TxKind, bigint>> = {
  approve: 55_500n, // measured 55,437 (FiatTokenV2_2, an allowance from 0)
  revoke: 24_500n, // measured on the earlier sandbox token; not re-measured
  supply: 204_200n, // measured 204,142 (Aave v3 Pool, the wallet's first supply to the reserve)
  withdraw: 60_000n, // measured on the earlier sandbox pool; not re-measured
  burn: 85_200n, // measured 85,173 (TokenMessengerV2.depositForBurn)
  mint: 164_100n, // measured 164,041 (receiveMessage: the wallet's first USDC on the destination)
  transfer: 52_000n,
};
