import { NonceConsumedError, type TxReceipt } from '../../ports/chain';
import type { UnitContext } from '../unitContext';
import { hashesOf, type SubTxRecord } from '../../domain/txRecords';

/**
 * Fee-bumped replacements of one transaction at most: each raises its fee
 * caps by 12.5 %, so three reach about 1.42 × the first; after them the
 * last bytes are only rebroadcast, every period, until the chain decides.
 */
export const MAX_REPLACEMENTS = 3;

/** Signs the record's bytes again at its nonce with higher fees, persisting the new hash before it is broadcast; resolves the updated record. */
export type ReplaceTx = (record: SubTxRecord) => Promise<SubTxRecord>;

const ms = (iso: string | undefined, fallback: number): number => (iso === undefined ? fallback : Date.parse(iso));

/**
 * Follows a signed transaction until the chain decides, with no deadline
 * that could end the step: the receipt of any hash of its nonce is the
 * outcome. Unknown to the node (persisted, never broadcast: a crash in
 * between), its bytes are sent at once. Not mined `stuckAfterMs` after the
 * last broadcast, they are broadcast again; not mined two periods after they
 * were signed, they are replaced at the same nonce with higher fees (up to
 * MAX_REPLACEMENTS times). Node errors propagate (the caller backs off and
 * follows again: the timing lives in the persisted `sentAt`); so does
 * NonceConsumedError when no hash of the nonce was ever mined.
 */
export async function followTx(record: SubTxRecord, ctx: Pick<UnitContext, 'chains' | 'clock' | 'txStuckAfterMs'>, replace: ReplaceTx): Promise<TxReceipt> {
  const { chains, txStuckAfterMs: period } = ctx;
  const chain = record.chain;
  let current = record;
  const mined = (waitMs: number): Promise<TxReceipt | null> => chains.findReceipt(chain, hashesOf(current), waitMs);
  const sendAgain = async (): Promise<TxReceipt | null> => {
    try {
      await chains.rebroadcast(chain, current.raw);
      return null;
    } catch (e) {
      // The nonce is used: by one of our own hashes (then its receipt is the outcome), or by another transaction.
      if (!(e instanceof NonceConsumedError)) throw e;
      const receipt = await mined(0);
      if (receipt === null) throw e;
      return receipt;
    }
  };

  const first = await mined(0);
  if (first !== null) return first;
  let lastBroadcast = ctx.clock.now().getTime();
  if (!(await chains.isKnown(chain, current.txHash))) {
    const receipt = await sendAgain();
    if (receipt !== null) return receipt;
  } else {
    lastBroadcast = ms(current.sentAt, lastBroadcast);
  }

  for (;;) {
    const now = ctx.clock.now().getTime();
    const signedAt = ms(current.sentAt, now);
    const canReplace = (current.replaced?.length ?? 0) < MAX_REPLACEMENTS;
    if (canReplace && now - signedAt >= 2 * period) {
      current = await replace(current);
      lastBroadcast = ctx.clock.now().getTime();
      continue;
    }
    if (now - lastBroadcast >= period) {
      const receipt = await sendAgain();
      if (receipt !== null) return receipt;
      lastBroadcast = now;
    }
    const nextAt = Math.min(lastBroadcast + period, canReplace ? signedAt + 2 * period : Number.POSITIVE_INFINITY);
    const receipt = await mined(Math.max(0, nextAt - now));
    if (receipt !== null) return receipt;
  }
}
