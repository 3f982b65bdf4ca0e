import type { Hex } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { ChainAccess } from './chainAccess';
import { minedWithRevert } from './nodeErrors';

/**
 * Sends raw bytes. Automining devnets answer a mined-but-reverted transaction
 * with an error; it is on chain all the same and its receipt tells the revert.
 */
export async function broadcast(access: ChainAccess, chain: ChainName, raw: Hex): Promise<void> {
  try {
    await access.call(chain, (x) => x.client.sendRawTransaction({ serializedTransaction: raw }));
  } catch (e) {
    if (minedWithRevert(e)) return;
    throw e;
  }
}
