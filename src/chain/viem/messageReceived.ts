import { slice, type Hex } from 'viem';
import type { ChainName } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { messageTransmitterV2Abi } from '../sandbox/abis';
import type { ChainAccess } from './chainAccess';

/** How far back the log of a received CCTP message is looked for (its mint follows its burn by minutes, not days). */
const RECEIVE_LOOKBACK_BLOCKS = 50_000n;

/** ChainPort.messageReceived: the transaction that received `message` on `chain`, or null while its nonce is unused there. */
export async function messageReceived(access: ChainAccess, chain: ChainName, message: Hex): Promise<Hex | null> {
  // CCTP v2 layout: the nonce (32 bytes, unique across source domains) at bytes 12..44; the transmitter keys usedNonces by it alone.
  const nonce = slice(message, 12, 44);
  const transmitter = access.client(chain).deployment.messageTransmitter;
  const used = await access.call(chain, (c) =>
    c.client.readContract({ address: transmitter, abi: messageTransmitterV2Abi, functionName: 'usedNonces', args: [nonce] }),
  );
  if (used === 0n) return null;
  const logs = await access.call(chain, async (c) => {
    const latest = await c.client.getBlockNumber();
    const fromBlock = latest > RECEIVE_LOOKBACK_BLOCKS ? latest - RECEIVE_LOOKBACK_BLOCKS : 0n;
    return c.client.getContractEvents({ address: transmitter, abi: messageTransmitterV2Abi, eventName: 'MessageReceived', args: { nonce }, fromBlock });
  });
  const received = logs[0];
  if (received === undefined) {
    throw new ServiceError(
      'INTERNAL_ERROR',
      `CCTP message nonce ${nonce} is used on ${chain} but its MessageReceived is older than ${RECEIVE_LOOKBACK_BLOCKS} blocks`,
      { details: { chain } },
    );
  }
  return received.transactionHash;
}
