import { BaseError, decodeErrorResult, type Hex } from 'viem';
import { simple7702Abi } from './abis';

/** A revert's data as text: Error(string)'s message, a Panic's code, a known error's name, else the raw data. */
export function describeRevert(data: Hex): string {
  if (data === '0x') return 'reverted without data';
  try {
    const { errorName, args } = decodeErrorResult({ abi: simple7702Abi, data });
    return (errorName as string) === 'Error' ? String(args?.[0]) : `${errorName}(${(args ?? []).map(String).join(', ')})`;
  } catch {
    return data;
  }
}

/** The failing call of an executeBatch's revert data: ExecuteError(index, error) names it (a batch of several calls). */
export function failedCallOf(data: Hex): { index: number; reason: string } | null {
  try {
    const e = decodeErrorResult({ abi: simple7702Abi, data });
    if (e.errorName !== 'ExecuteError') return null;
    const [index, inner] = e.args;
    return { index: Number(index), reason: describeRevert(inner) };
  } catch {
    return null;
  }
}

/**
 * The revert data a node's error carries for a reverting eth_call or
 * eth_estimateGas: viem's decoded `data`, or Hardhat's "return data: 0x…"
 * in the message (its custom errors come only that way).
 */
export function revertDataOf(e: unknown): Hex | undefined {
  if (!(e instanceof BaseError)) return undefined;
  const carried = e.walk((x) => typeof (x as { data?: unknown }).data === 'string') as { data?: string } | null;
  if (carried?.data?.startsWith('0x')) return carried.data as Hex;
  const text = `${e.message} ${e.details ?? ''}`;
  return /return data: (0x[0-9a-fA-F]*)/.exec(text)?.[1] as Hex | undefined;
}
