import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hex, type TransactionReceipt } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { Clock } from '../../domain/clock';
import type { TxReceipt } from '../../ports/chain';
import { toReceipt, type ReceiptContext } from './toReceipt';

/** A receipt lookup that answers null for a transaction not mined (yet) instead of throwing. */
const receiptOrNull = (p: Promise<TransactionReceipt>): Promise<TransactionReceipt | null> =>
  p.catch((e: unknown) => {
    if (e instanceof TransactionReceiptNotFoundError) return null;
    throw e;
  });

/** ChainPort.receipt: waits up to `timeoutMs` for a hash the node knows; null for one it does not. */
export async function receipt(ctx: ReceiptContext, chain: ChainName, txHash: Hex, timeoutMs = 60_000): Promise<TxReceipt | null> {
  const r = await ctx.access.call(chain, async (c) => {
    const known = await c.client.getTransaction({ hash: txHash }).catch(() => null);
    if (!known) return null;
    return c.client.waitForTransactionReceipt({ hash: txHash, timeout: timeoutMs });
  });
  return r ? toReceipt(ctx, chain, r) : null;
}

/** ChainPort.findReceipt: the receipt of whichever of `hashes` is mined, polled every `pollMs` for up to `waitMs`; null while none is. */
export async function findReceipt(
  ctx: ReceiptContext & { pollMs: number; clock: Pick<Clock, 'now' | 'setTimeout'> },
  chain: ChainName,
  hashes: readonly Hex[],
  waitMs: number,
): Promise<TxReceipt | null> {
  const deadline = ctx.clock.now().getTime() + waitMs;
  for (;;) {
    const mined = await ctx.access.call(chain, async (c) => {
      const found = await Promise.all(hashes.map((hash) => receiptOrNull(c.client.getTransactionReceipt({ hash }))));
      return found.find((r) => r !== null) ?? null;
    });
    if (mined) return toReceipt(ctx, chain, mined);
    const left = deadline - ctx.clock.now().getTime();
    if (left <= 0) return null;
    await new Promise<void>((r) => ctx.clock.setTimeout(r, Math.min(ctx.pollMs, left)));
  }
}

/** ChainPort.isKnown: whether the node knows `txHash`, pending or mined. */
export async function isKnown(ctx: Pick<ReceiptContext, 'access'>, chain: ChainName, txHash: Hex): Promise<boolean> {
  return ctx.access.call(chain, (c) =>
    c.client.getTransaction({ hash: txHash }).then(
      () => true,
      (e: unknown) => {
        if (e instanceof TransactionNotFoundError) return false;
        throw e;
      },
    ),
  );
}
