import { BaseError, encodeAbiParameters, encodeErrorResult, encodeEventTopics, keccak256, toHex, type Address, type Hex, type Log } from 'viem';
import { entryPoint08Abi, simple7702Abi } from '../../../src/chain/viem/operations/abis';
import { operationOutcome } from '../../../src/chain/viem/operations/operationOutcome';
import { describeRevert, failedCallOf, revertDataOf } from '../../../src/chain/viem/operations/revertReasons';

/**
 * How a bundle's receipt is read (EntryPoint v0.8's UserOperationEvent and
 * UserOperationRevertReason) and how a batch's revert names its call
 * (Simple7702Account's ExecuteError), on logs and revert data built here.
 */
const ENTRY_POINT: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108';
const SENDER: Address = '0x00000000000000000000000000000000000000aa';
const PAYMASTER: Address = '0x00000000000000000000000000000000000000bb';
const USER_OP_HASH = keccak256(toHex('op'));

const errorString = (message: string): Hex =>
  encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }], errorName: 'Error', args: [message] });
const executeError = (index: bigint, inner: Hex): Hex => encodeErrorResult({ abi: simple7702Abi, errorName: 'ExecuteError', args: [index, inner] });

function log(address: Address, topics: Hex[], data: Hex): Log {
  return {
    address,
    topics: topics as [Hex, ...Hex[]],
    data,
    blockHash: null,
    blockNumber: null,
    logIndex: null,
    transactionHash: null,
    transactionIndex: null,
    removed: false,
  };
}

function userOperationEvent(success: boolean, at: Address = ENTRY_POINT): Log {
  const topics = encodeEventTopics({
    abi: entryPoint08Abi,
    eventName: 'UserOperationEvent',
    args: { userOpHash: USER_OP_HASH, sender: SENDER, paymaster: PAYMASTER },
  });
  const data = encodeAbiParameters(
    [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
    [3n, success, 123_456n * 10n ** 9n, 123_456n],
  );
  return log(at, topics as Hex[], data);
}

function revertReasonEvent(reason: Hex): Log {
  const topics = encodeEventTopics({ abi: entryPoint08Abi, eventName: 'UserOperationRevertReason', args: { userOpHash: USER_OP_HASH, sender: SENDER } });
  return log(ENTRY_POINT, topics as Hex[], encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], [3n, reason]));
}

test('behavior: a successful operation: its hash, success, and what the EntryPoint charged and counted', () => {
  expect(operationOutcome([userOperationEvent(true)], ENTRY_POINT)).toEqual({
    userOpHash: USER_OP_HASH,
    success: true,
    actualGasCost: 123_456n * 10n ** 9n,
    actualGasUsed: 123_456n,
  });
});

test("behavior: a failed batch names its failing call and the call's own reason from ExecuteError(index, error)", () => {
  const outcome = operationOutcome(
    [userOperationEvent(false), revertReasonEvent(executeError(1n, errorString('ERC20: transfer amount exceeds balance')))],
    ENTRY_POINT,
  );
  expect(outcome).toMatchObject({ success: false, failedCall: 1, reason: 'ERC20: transfer amount exceeds balance' });
});

test("behavior: a lone call's revert (no ExecuteError) is read as a reason without a call index", () => {
  const outcome = operationOutcome([userOperationEvent(false), revertReasonEvent(errorString('51'))], ENTRY_POINT);
  expect(outcome).toMatchObject({ success: false, reason: '51' });
  expect(outcome?.failedCall).toBeUndefined();
});

test("behavior: no UserOperationEvent of the chain's EntryPoint (a plain transaction, or another contract emitting the same event): no operation", () => {
  expect(operationOutcome([], ENTRY_POINT)).toBeUndefined();
  expect(operationOutcome([userOperationEvent(true, '0x00000000000000000000000000000000000000cc')], ENTRY_POINT)).toBeUndefined();
});

test('behavior: revert data as text; ExecuteError decoded; Hardhat\'s "return data: 0x…" read out of the message', () => {
  expect(describeRevert(errorString('no'))).toBe('no');
  expect(describeRevert('0x')).toBe('reverted without data');
  expect(failedCallOf(executeError(2n, '0x'))).toEqual({ index: 2, reason: 'reverted without data' });
  expect(failedCallOf(errorString('no'))).toBeNull();
  const data = executeError(1n, errorString('x'));
  const hardhat = new BaseError('An internal error was received.', {
    details: `Error: VM Exception while processing transaction: reverted with an unrecognized custom error (return data: ${data})`,
  });
  expect(revertDataOf(hardhat)).toBe(data);
  expect(revertDataOf(new Error('plain'))).toBeUndefined();
});
