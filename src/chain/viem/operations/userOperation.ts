import { concat, encodeAbiParameters, numberToHex, pad, type Address, type Hex } from 'viem';

/** ERC-4337 v0.8's PackedUserOperation, as EntryPoint.handleOps takes it. */
export interface PackedUserOperation {
  sender: Address;
  nonce: bigint;
  initCode: Hex;
  callData: Hex;
  /** verificationGasLimit (high 128 bits) ++ callGasLimit (low). */
  accountGasLimits: Hex;
  preVerificationGas: bigint;
  /** maxPriorityFeePerGas (high) ++ maxFeePerGas (low). */
  gasFees: Hex;
  /** paymaster ++ paymasterVerificationGasLimit (16 bytes) ++ paymasterPostOpGasLimit (16 bytes) ++ paymasterData. */
  paymasterAndData: Hex;
  signature: Hex;
}

/** Two uint128 in one word, high first (accountGasLimits, gasFees, the paymaster's gas limits). */
export const packUints = (high: bigint, low: bigint): Hex => concat([pad(numberToHex(high), { size: 16 }), pad(numberToHex(low), { size: 16 })]);

/** The gas limits and fees of one operation. */
export interface OperationGas {
  verificationGasLimit: bigint;
  callGasLimit: bigint;
  preVerificationGas: bigint;
  paymasterVerificationGasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * The operation's fixed figures. Validation: Simple7702Account recovers one
 * ECDSA signature (about 10k gas with the EntryPoint's bookkeeping); the
 * paymaster recovers the service's. Unused execution gas costs the paymaster
 * a 10 % penalty paid to the bundler, both the service: the limits can be
 * generous. preVerificationGas is what the bundler asks to cover the
 * bundle's calldata and overhead: ours, paid to ourselves.
 */
export const OPERATION_LIMITS = {
  verificationGasLimit: 120_000n,
  paymasterVerificationGasLimit: 80_000n,
  preVerificationGas: 60_000n,
  /** Per call of the batch, over its typical gas: executeBatch's loop and cold accesses of a batch. */
  perCall: 20_000n,
} as const;

/** How long the paymaster's sponsorship of an operation holds (it is mined in seconds, or replaced with a new one). */
export const SPONSORSHIP_SECONDS = 3600;

/** The operation before any signature: no paymasterData, no signature. */
export function unsignedOperation(sender: Address, nonce: bigint, callData: Hex, paymaster: Address, gas: OperationGas): PackedUserOperation {
  return {
    sender,
    nonce,
    initCode: '0x',
    callData,
    accountGasLimits: packUints(gas.verificationGasLimit, gas.callGasLimit),
    preVerificationGas: gas.preVerificationGas,
    gasFees: packUints(gas.maxPriorityFeePerGas, gas.maxFeePerGas),
    paymasterAndData: concat([paymaster, packUints(gas.paymasterVerificationGasLimit, 0n)]),
    signature: '0x',
  };
}

/** paymasterAndData with the sponsorship window and the service's signature (what ServicePaymaster checks). */
export function withSponsorship(op: PackedUserOperation, validUntil: number, validAfter: number, signature: Hex): PackedUserOperation {
  const head = op.paymasterAndData.slice(0, 2 + 2 * (20 + 32)) as Hex;
  return { ...op, paymasterAndData: concat([head, encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]), signature]) };
}
