import { decodeFunctionData, parseTransaction, type Hex } from 'viem';
import type { ChainName } from '../../../domain/chains';
import type { ChainAccess } from '../chainAccess';
import { entryPoint08Abi } from './abis';

/**
 * Whether the user operation `raw` bundles (handleOps to the chain's
 * EntryPoint) has been used up on chain: its sender's EntryPoint nonce moved
 * past the operation's. False for a transaction that bundles none.
 */
export async function operationLanded(access: ChainAccess, chain: ChainName, raw: Hex): Promise<boolean> {
  const entryPoint = access.client(chain).deployment.erc4337?.entryPoint;
  const tx = parseTransaction(raw);
  if (entryPoint === undefined || tx.to?.toLowerCase() !== entryPoint.toLowerCase() || tx.data === undefined) return false;
  let op: { sender: `0x${string}`; nonce: bigint } | undefined;
  try {
    const call = decodeFunctionData({ abi: entryPoint08Abi, data: tx.data });
    if (call.functionName !== 'handleOps') return false;
    op = call.args[0][0];
  } catch {
    return false;
  }
  if (op === undefined) return false;
  const key = op.nonce >> 64n;
  const now = await access.call(chain, (c) =>
    c.client.readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [op.sender, key] }),
  );
  return now > op.nonce;
}
