import type { Hex } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { IntentResults, StepType, TransactionRecord } from '../../domain/intent';
import type { SignedTx, TxKind, TxReceipt } from '../../chain/port';

/** `signed`: hash and raw bytes persisted, receipt not yet seen; then the receipt's outcome. */
export type SubTxStatus = 'signed' | 'confirmed' | 'reverted';

/**
 * One sub-transaction of a step as kept in `results.transactions`: the SPEC
 * fields plus what recovery needs (kind, step, raw signed bytes, status).
 */
export interface SubTxRecord extends TransactionRecord {
  txHash: Hex;
  kind: TxKind;
  chain: ChainName;
  /** Index of the step it belongs to. */
  step: number;
  raw: Hex;
  status: SubTxStatus;
}

/** Whether a transaction record carries the engine's sub-transaction fields. */
export function isSubTxRecord(t: TransactionRecord): t is SubTxRecord {
  const r = t as Partial<SubTxRecord>;
  return (
    typeof r.kind === 'string' && typeof r.step === 'number' && typeof r.raw === 'string' && typeof r.status === 'string' && t.txHash.startsWith('0x')
  );
}

/** The records of step `step`, in sending order. */
export function stepRecords(results: IntentResults | undefined, step: number): SubTxRecord[] {
  return (results?.transactions ?? []).filter(isSubTxRecord).filter((t) => t.step === step);
}

/** The record of `kind` in step `step`, if it was ever signed. */
export function findSubTx(results: IntentResults | undefined, step: number, kind: TxKind): SubTxRecord | undefined {
  return stepRecords(results, step).find((t) => t.kind === kind);
}

const roundUsd = (n: number): number => Math.round(n * 1e6) / 1e6;

/** Gas used (sum, decimal string) and its cost in USD over `records` that have a receipt. */
export function gasTotals(records: readonly TransactionRecord[]): { gasUsed: string; gasCostUsd: number } {
  let gas = 0n;
  let usd = 0;
  for (const r of records) {
    if (r.gasUsed !== undefined) gas += BigInt(r.gasUsed);
    usd += r.gasCostUsd ?? 0;
  }
  return { gasUsed: gas.toString(), gasCostUsd: roundUsd(usd) };
}

/**
 * Results with a freshly signed sub-transaction recorded (persisted before it is broadcast).
 * A step sends each kind once: a record of the same step and kind is one the port re-signed
 * because its nonce was taken before it reached the chain, so the new bytes replace it.
 */
export function withSigned(results: IntentResults, type: StepType, step: number, signed: SignedTx): IntentResults {
  const record: SubTxRecord = { type, kind: signed.kind, chain: signed.chain, step, txHash: signed.txHash, raw: signed.raw, status: 'signed' };
  const same = (t: TransactionRecord): boolean => isSubTxRecord(t) && t.step === step && t.kind === signed.kind;
  if (!results.transactions.some(same)) return { ...results, transactions: [...results.transactions, record] };
  return { ...results, transactions: results.transactions.map((t) => (same(t) ? record : t)) };
}

/** Results with `receipt` recorded on its sub-transaction and the totals brought up to date. */
export function withReceipt(results: IntentResults, receipt: TxReceipt): IntentResults {
  const transactions = results.transactions.map((t) =>
    isSubTxRecord(t) && t.txHash === receipt.txHash
      ? { ...t, status: receipt.status === 'success' ? ('confirmed' as const) : ('reverted' as const), gasUsed: receipt.gasUsed.toString(), gasCostUsd: receipt.gasCostUsd }
      : t,
  );
  const totals = gasTotals(transactions);
  return { ...results, transactions, totalGasUsed: totals.gasUsed, totalGasCostUsd: totals.gasCostUsd };
}
