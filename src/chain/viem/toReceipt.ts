import { parseEventLogs, type TransactionReceipt } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { TxReceipt } from '../../ports/chain';
import { tokenMessengerV2Abi } from '../sandbox/abis';
import type { ChainAccess } from './chainAccess';
import type { EthUsdPrices } from './ethUsdPrices';
import { operationOutcome } from './operations/operationOutcome';

export interface ReceiptContext {
  access: ChainAccess;
  prices: EthUsdPrices;
}

/**
 * A node receipt in the port's terms, its gas priced at the chain's own feed.
 * A bundle (the EntryPoint's UserOperationEvent in its logs) carries its
 * operation's outcome, and `status` is the operation's success.
 */
export async function toReceipt(ctx: ReceiptContext, chain: ChainName, r: TransactionReceipt): Promise<TxReceipt> {
  const l1Fee = (r as { l1Fee?: bigint | null }).l1Fee ?? 0n;
  const gasCostWei = r.gasUsed * r.effectiveGasPrice + l1Fee;
  const usd = await ctx.prices.ethUsd(chain);
  const entryPoint = ctx.access.client(chain).deployment.erc4337?.entryPoint;
  const operation = entryPoint === undefined ? undefined : operationOutcome(r.logs, entryPoint);
  return {
    chain,
    txHash: r.transactionHash,
    status: operation === undefined || r.status === 'reverted' ? r.status : operation.success ? 'success' : 'reverted',
    gasUsed: r.gasUsed,
    gasCostWei,
    gasCostUsd: Math.round((Number(gasCostWei) / 1e18) * usd * 1e6) / 1e6,
    blockNumber: r.blockNumber,
    ...mintedBy(ctx.access, chain, r, operation !== undefined),
    ...(operation && { operation }),
  };
}

/**
 * What the chain's token messenger minted to the recipient in `r` (a CCTP
 * mint), if it did: the first mint's; a bundle also tells each, in log order.
 */
function mintedBy(access: ChainAccess, chain: ChainName, r: TransactionReceipt, bundle: boolean): { minted?: bigint; mintedEach?: bigint[] } {
  const messenger = access.client(chain).deployment.tokenMessenger.toLowerCase();
  const logs = parseEventLogs({ abi: tokenMessengerV2Abi, logs: r.logs, eventName: 'MintAndWithdraw' }).filter((l) => l.address.toLowerCase() === messenger);
  if (logs.length === 0) return {};
  if (!bundle) return { minted: logs.reduce((sum, l) => sum + l.args.amount, 0n) };
  return { minted: logs[0]!.args.amount, mintedEach: logs.map((l) => l.args.amount) };
}
