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

/** A node receipt in the port's terms, its gas priced at the chain's own feed. */
export async function toReceipt(ctx: ReceiptContext, chain: ChainName, r: TransactionReceipt): Promise<TxReceipt> {
  const l1Fee = (r as { l1Fee?: bigint | null }).l1Fee ?? 0n;
  const gasCostWei = r.gasUsed * r.effectiveGasPrice + l1Fee;
  const usd = await ctx.prices.ethUsd(chain);
  const bundle = bundled(ctx.access, chain, r);
  return {
    chain,
    txHash: r.transactionHash,
    status: bundle.status ?? r.status,
    gasUsed: r.gasUsed,
    gasCostWei,
    gasCostUsd: Math.round((Number(gasCostWei) / 1e18) * usd * 1e6) / 1e6,
    blockNumber: r.blockNumber,
    ...mintedBy(ctx.access, chain, r),
    ...(bundle.operation && { operation: bundle.operation }),
  };
}

/** A bundle of the chain's EntryPoint: its operation's outcome, which is the receipt's status (handleOps succeeds when the operation fails). */
function bundled(access: ChainAccess, chain: ChainName, r: TransactionReceipt): Partial<Pick<TxReceipt, 'operation' | 'status'>> {
  const entryPoint = access.client(chain).deployment.erc4337?.entryPoint;
  if (entryPoint === undefined || r.to?.toLowerCase() !== entryPoint.toLowerCase()) return {};
  const operation = operationOutcome(r.logs, entryPoint);
  if (operation === undefined) return {};
  return { operation, status: r.status === 'success' && operation.success ? 'success' : 'reverted' };
}

/** What the chain's token messenger minted to the recipient in `r` (a CCTP mint), if it did. */
function mintedBy(access: ChainAccess, chain: ChainName, r: TransactionReceipt): Pick<TxReceipt, 'minted' | 'mintedEach'> {
  const messenger = access.client(chain).deployment.tokenMessenger.toLowerCase();
  const logs = parseEventLogs({ abi: tokenMessengerV2Abi, logs: r.logs, eventName: 'MintAndWithdraw' }).filter((l) => l.address.toLowerCase() === messenger);
  if (logs.length === 0) return {};
  const each = logs.map((l) => l.args.amount);
  // several mints in one bundle (a rebalance minting two bridges in one operation): each in log order, i.e. call order
  return { minted: each[0]!, ...(each.length > 1 && { mintedEach: each }) };
}
