import { encodeFunctionData, type Address, type Hex, type LocalAccount, type SignedAuthorization } from 'viem';
import { getUserOperationHash, toPackedUserOperation, type PackedUserOperation, type UserOperation } from 'viem/account-abstraction';
import type { Fees } from '../feeEstimates';
import type { EncodedTx } from '../encodeTx';
import { entryPoint08Abi, simple7702Abi } from './abis';
import { EIP7702_INIT_CODE } from './delegation';
import { sponsorship } from './paymasterData';

/**
 * Validation gas limits: Simple7702Account's validateUserOp (one ecrecover,
 * no prefund: the paymaster pays) and ServicePaymaster's check (a hash and an
 * ecrecover). Unused verification gas costs nothing (EntryPoint v0.8
 * penalises only unused execution gas), so they are generous.
 */
export const ACCOUNT_VERIFICATION_GAS = 100_000n;
export const PAYMASTER_VERIFICATION_GAS = 60_000n;

/** Gas of a transaction before its calldata (EIP-2028: 16 per non-zero byte, 4 per zero byte). */
const TX_BASE_GAS = 21_000n;
/** EIP-7702: what each authorization of a type-4 transaction costs (PER_EMPTY_ACCOUNT_COST; 12,500 of it refunded for an existing account). */
export const AUTHORIZATION_GAS = 25_000n;
/** handleOps' work outside the operation's own metering (its loop, the beneficiary's compensation). */
const BUNDLE_BOOKKEEPING_GAS = 10_000n;

/** The calls of `executeBatch`, as the EntryPoint will call the wallet with them. */
export function batchCallData(calls: readonly EncodedTx[]): Hex {
  return encodeFunctionData({
    abi: simple7702Abi,
    functionName: 'executeBatch',
    args: [calls.map((c) => ({ target: c.to, value: 0n, data: c.data }))],
  });
}

/** Calldata gas of `data` (EIP-2028). */
function calldataGas(data: Hex): bigint {
  let gas = 0n;
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === '00' ? 4n : 16n;
  return gas;
}

export interface OperationDraft {
  chainId: number;
  entryPoint: Address;
  delegate: Address;
  paymaster: Address;
  wallet: LocalAccount;
  gasTank: LocalAccount;
  nonce: bigint;
  callData: Hex;
  callGasLimit: bigint;
  fees: Fees;
  /** The wallet's authorization when it rides in the bundle (first use, or a delegation changed elsewhere). */
  authorization?: SignedAuthorization;
}

export interface SignedUserOperation {
  packed: PackedUserOperation;
  userOpHash: Hex;
  /** handleOps([op], beneficiary = gas tank): the bundle transaction's calldata. */
  bundleData: Hex;
}

/**
 * The operation, sponsored and signed: its paymasterData carries the gas
 * tank's signature, then the wallet signs the userOpHash (EntryPoint v0.8's
 * EIP-712 hash, with the EIP-7702 initCode marker: it covers the delegate) as
 * a raw digest, which Simple7702Account recovers. preVerificationGas is what
 * the EntryPoint does not meter: the bundle's base and calldata, the
 * authorization, handleOps' bookkeeping; it pays the gas tank back.
 */
export async function signedOperation(d: OperationDraft): Promise<SignedUserOperation> {
  const dummySignature = `0x${'11'.repeat(65)}` as Hex;
  const base = {
    sender: d.wallet.address,
    nonce: d.nonce,
    factory: EIP7702_INIT_CODE,
    factoryData: '0x',
    callData: d.callData,
    callGasLimit: d.callGasLimit,
    verificationGasLimit: ACCOUNT_VERIFICATION_GAS,
    preVerificationGas: 0n,
    maxFeePerGas: d.fees.maxFeePerGas,
    maxPriorityFeePerGas: d.fees.maxPriorityFeePerGas,
    paymaster: d.paymaster,
    paymasterVerificationGasLimit: PAYMASTER_VERIFICATION_GAS,
    paymasterPostOpGasLimit: 0n,
    paymasterData: `0x${'11'.repeat(64 + 65)}` as Hex,
    signature: dummySignature,
  } satisfies UserOperation<'0.8'>;
  // the bundle's calldata as it will be (same sizes; signatures' bytes non-zero as real ones mostly are)
  const sized = encodeFunctionData({ abi: entryPoint08Abi, functionName: 'handleOps', args: [[toPackedUserOperation(base)], d.gasTank.address] });
  const preVerificationGas = TX_BASE_GAS + calldataGas(sized) + (d.authorization ? AUTHORIZATION_GAS : 0n) + BUNDLE_BOOKKEEPING_GAS;

  const unsponsored = { ...base, preVerificationGas, paymasterData: '0x' as Hex };
  const paymasterData = await sponsorship(d.gasTank, toPackedUserOperation(unsponsored), d.chainId, d.paymaster);
  const sponsored = { ...unsponsored, paymasterData };
  const userOpHash = getUserOperationHash({
    chainId: d.chainId,
    entryPointAddress: d.entryPoint,
    entryPointVersion: '0.8',
    // the hash reads only the delegate's address of the authorization (the initCode marker stands for it)
    userOperation: { ...sponsored, authorization: { address: d.delegate } as SignedAuthorization },
  });
  if (d.wallet.sign === undefined) throw new Error(`the key provider's account ${d.wallet.address} signs no raw digests`);
  const packed = toPackedUserOperation({ ...sponsored, signature: await d.wallet.sign({ hash: userOpHash }) });
  return { packed, userOpHash, bundleData: encodeFunctionData({ abi: entryPoint08Abi, functionName: 'handleOps', args: [[packed], d.gasTank.address] }) };
}
