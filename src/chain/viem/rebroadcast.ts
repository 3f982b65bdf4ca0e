import { keccak256, type Hex } from 'viem';
import type { ChainName } from '../../domain/chains';
import { NonceConsumedError } from '../../ports/chain';
import { broadcast } from './broadcast';
import type { ChainAccess } from './chainAccess';
import { alreadyKnown, nonceTaken } from './nodeErrors';
import { operationLanded } from './operations/operationLanded';

/**
 * ChainPort.rebroadcast: "already known" is success; NonceConsumedError when
 * the nonce went to another transaction. For a bundle of a user operation,
 * only when the operation did not land either (its EntryPoint nonce did not
 * move): one that landed in another bundle must never be signed again, so
 * that is no error here (its effect happened; the same bytes are sent again
 * and the caller keeps following its hashes).
 */
export async function rebroadcast(access: ChainAccess, chain: ChainName, raw: Hex): Promise<void> {
  try {
    await broadcast(access, chain, raw);
  } catch (e) {
    if (alreadyKnown(e)) return;
    if (!nonceTaken(e)) throw e;
    // The nonce is used: either by these very bytes (then the chain knows the hash) or by another transaction.
    const txHash = keccak256(raw);
    const known = await access.call(chain, (c) => c.client.getTransaction({ hash: txHash })).catch(() => null);
    if (known) return;
    if (await operationLanded(access, chain, raw)) return;
    throw new NonceConsumedError(chain, txHash);
  }
}
