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
 * What one ERC-4337 v0.8 user operation costs beyond its calls' own gas on a
 * `7702` chain: the EntryPoint's bookkeeping in handleOps (the wallet's
 * nonce, the paymaster's deposit), the validation of the account
 * (Simple7702Account's signature check) and of the paymaster (the service's
 * signature), the bundle's own 21,000 and calldata, the paymaster's payment
 * to the bundler. Measured by bench/operationGas.ts on the sandbox devnets,
 * on a batch as the service sends them (an approve and the spend of that
 * allowance: approve + depositForBurn) from a wallet delegated already:
 * 157,100 gas against the two calls as plain transactions less their
 * 21,000 each (58,509 over them). One approve alone costs 67,548 over its
 * call: the batches' warm storage makes up the difference.
 */
export const OPERATION_OVERHEAD_GAS = 58_500n;

/**
 * What a wallet's first operation on a chain costs over a later one: its
 * EIP-7702 authorization in the bundle (the protocol's 25,000 per
 * authorization, PER_EMPTY_ACCOUNT_COST, and its calldata) and the first
 * write of its EntryPoint nonce (22,100 for a zero slot instead of 2,900),
 * less the cold accesses the first batch makes warm. Measured by
 * bench/operationGas.ts: approve + depositForBurn, first operation 196,151
 * gas, second 157,100 (39,051; one approve alone: 59,500).
 */
export const AUTHORIZATION_GAS = 39_000n;
