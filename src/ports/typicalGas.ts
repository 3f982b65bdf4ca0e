import type { TxKind } from './chain';

/**
 * Gas one transaction of each kind uses on the sandbox devnets, which run
 * Circle's FiatTokenV2_2, Aave v3's own Pool and our CCTP v2 contracts
 * (receipts of executed intents, test/e2e/intentPreview.test.ts prints them,
 * and of each market's supply, withdraw max and revoke on a fresh sandbox);
 * the most expensive market's figure where they differ.
 * Used where a transaction cannot be estimated before it is sent (a CCTP
 * mint needs the attestation of its burn), as the first bound of a simulated
 * estimate, and to price the steps of every candidate market when lends are
 * ranked by net return (`optimize: netReturn`).
 */
export const TYPICAL_GAS: Readonly<Record<TxKind, bigint>> = {
  approve: 55_500n, // measured 55,437 (FiatTokenV2_2, an allowance from 0)
  revoke: 33_600n, // measured 33,501 (FiatTokenV2_2 approve to 0 of a standing allowance)
  supply: 226_100n, // measured 226,030 (Aave v3 Pool on ethereum-sepolia, the wallet's first supply; L2Pool 204,142; Comet 109,020)
  withdraw: 168_900n, // measured 168,819 (Aave v3 Pool, withdraw max; Comet 59,156)
  burn: 85_200n, // measured 85,173 (TokenMessengerV2.depositForBurn)
  mint: 164_100n, // measured 164,041 (receiveMessage: the wallet's first USDC on the destination)
  transfer: 52_000n,
};

/**
 * What a supply with an EIP-2612 permit (Aave's supplyWithPermit of Circle's
 * USDC) uses beyond the plain supply under a standing allowance: the
 * signature's check, the token's nonce and the allowance the permit writes,
 * and the longer calldata. Measured on the sandbox devnets: a wallet's first
 * permit supply of 10 USDC used 267,250 (its nonce written from 0; the next
 * one 179,875) where the simulated plain supply said 237,442, on each chain.
 */
export const SUPPLY_PERMIT_GAS = 30_000n;

/**
 * What one ERC-4337 v0.8 user operation of a delegated wallet costs beyond
 * its calls sent as plain transactions (each with its own 21,000): the
 * bundle's calldata (the packed operation, two signatures), the validation
 * of the account (Simple7702Account's ecrecover of the userOpHash) and of
 * the paymaster (ServicePaymaster's hash and ecrecover), the EntryPoint's
 * bookkeeping (nonce, deposit, events), less the one transaction's 21,000 it
 * saves. Measured on the sandbox devnets (test/integration/operations/
 * sendOperation.test.ts prints it): approve + first supply as one operation
 * against the same two plain transactions: Aave v3 (L2Pool, base-sepolia)
 * 283,758 against 252,657 (+31,101), Compound III (ethereum-sepolia)
 * 161,045 against 141,757 (+19,288); the larger figure. No native top-up
 * goes with it (the plain path adds the gas tank's 21,000 transfer).
 */
export const OPERATION_OVERHEAD_GAS = 31_200n;

/**
 * What a wallet's first operation on a chain adds: its EIP-7702
 * authorization riding in the bundle (25,000 per EIP-7702, PER_EMPTY_ACCOUNT_COST),
 * the wallet's EntryPoint nonce written from zero and the delegate's first
 * (cold) access. Measured as above: first operations used 323,342 (Aave)
 * and 206,251 (Compound), +39,584 and +45,206 over a delegated wallet's.
 */
export const AUTHORIZATION_GAS = 45_300n;
