/**
 * The sub-transaction records an executing intent keeps in
 * `results.transactions`, and the pure changes the machine's events make to
 * them (src/domain/intentStateMachine.ts). The engine's executor and planner
 * both read them from here, so neither imports the other.
 */
import type { Hex } from 'viem';
import type { ChainName } from './chains';
import type { IntentResults, StepType, TransactionRecord } from './intent';

/** What a step's transaction does (the chain port's TxRequest kinds; a test keeps the two lists equal). */
export type TxKind = 'approve' | 'revoke' | 'supply' | 'withdraw' | 'burn' | 'mint' | 'transfer';

/** `signed`: hash and raw bytes persisted, receipt not yet seen; then the receipt's outcome. */
export type SubTxStatus = 'signed' | 'confirmed' | 'reverted';

/**
 * One sub-transaction of a step as kept in `results.transactions`: the API
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
  /** When `raw` was signed (ISO 8601): not mined one period later it is rebroadcast, two periods later replaced. */
  sentAt?: string;
  /**
   * The other hashes signed at this nonce (fee-bumped replacements, oldest
   * first): whichever of them and `txHash` is mined is the outcome, and once
   * one is, it becomes `txHash`.
   */
  replaced?: Hex[];
  /** A confirmed CCTP mint: what it delivered to the wallet (the burned amount less the fee kept back), smallest units as an integer string. */
  minted?: string;
  /**
   * Sent inside a user operation (a `7702` chain): its hash. Every call of
   * the operation has its own record, all with the bundle's `txHash` and raw
   * bytes; the bundle's gas is shared among them.
   */
  operation?: Hex;
  /**
   * Reverted only because another call of its operation reverted: it did
   * nothing, and it is sent again (its record then replaced) unless its own
   * step is the one failing.
   */
  rolledBack?: true;
}

/** Signed bytes as the chain port hands them over (its SignedTx, the fields a record keeps). */
export interface SignedFacts {
  kind: TxKind;
  chain: ChainName;
  txHash: Hex;
  raw: Hex;
}

/** A mined transaction's outcome (the chain port's TxReceipt, the fields a record keeps). */
export interface ReceiptFacts {
  txHash: Hex;
  status: 'success' | 'reverted';
  gasUsed: bigint;
  gasCostUsd: number;
  /** A CCTP mint only: what it delivered, smallest units. */
  minted?: bigint;
  /** A bundle: each mint's delivery in order of the mint calls. */
  mintedEach?: bigint[];
}

/** Every hash the record's nonce was signed with; at most one of them is ever mined. */
export const hashesOf = (r: SubTxRecord): Hex[] => [r.txHash, ...(r.replaced ?? [])];

/** Whether a transaction record carries the engine's sub-transaction fields. */
export function isSubTxRecord(t: TransactionRecord): t is SubTxRecord {
  const r = t as Partial<SubTxRecord>;
  return typeof r.kind === 'string' && typeof r.step === 'number' && typeof r.raw === 'string' && typeof r.status === 'string' && t.txHash.startsWith('0x');
}

/** The records of step `step`, in sending order. */
export function stepRecords(results: IntentResults | undefined, step: number): SubTxRecord[] {
  const out: SubTxRecord[] = [];
  for (const t of results?.transactions ?? []) if (isSubTxRecord(t) && t.step === step) out.push(t);
  return out;
}

/** Whether the record says its step failed on chain: reverted by its own call, not rolled back with another's. */
export const failedOnChain = (r: SubTxRecord): boolean => r.status === 'reverted' && r.rolledBack !== true;

/** The record of `kind` in step `step`, if it was ever signed (the first, in sending order). */
export function findSubTx(results: IntentResults | undefined, step: number, kind: TxKind): SubTxRecord | undefined {
  for (const t of results?.transactions ?? []) if (isSubTxRecord(t) && t.step === step && t.kind === kind) return t;
  return undefined;
}

/** What the confirmed mint of bridge step `step` delivered, smallest units; undefined before it is confirmed (or when its receipt told nothing). */
export function mintedOf(results: IntentResults | undefined, step: number): bigint | undefined {
  const mint = findSubTx(results, step, 'mint');
  return mint?.status === 'confirmed' && mint.minted !== undefined ? BigInt(mint.minted) : undefined;
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
export function withSigned(results: IntentResults, type: StepType, step: number, signed: SignedFacts, at: string): IntentResults {
  const record: SubTxRecord = {
    type,
    kind: signed.kind,
    chain: signed.chain,
    step,
    txHash: signed.txHash,
    raw: signed.raw,
    status: 'signed',
    sentAt: at,
  };
  const same = (t: TransactionRecord): boolean => isSubTxRecord(t) && t.step === step && t.kind === signed.kind;
  if (!results.transactions.some(same)) return { ...results, transactions: [...results.transactions, record] };
  return { ...results, transactions: results.transactions.map((t) => (same(t) ? record : t)) };
}

/**
 * Results with a transaction someone else sent for this sub-transaction (a
 * mint relayed by another party for our burn): recorded like a signed one,
 * with no bytes of ours, so its receipt lands on it as on any other.
 */
export function withObserved(
  results: IntentResults,
  step: { type: StepType; index: number },
  spec: { kind: TxKind; chain: ChainName },
  txHash: Hex,
): IntentResults {
  const record: SubTxRecord = { type: step.type, kind: spec.kind, chain: spec.chain, step: step.index, txHash, raw: '0x', status: 'signed' };
  const same = (t: TransactionRecord): boolean => isSubTxRecord(t) && t.step === step.index && t.kind === spec.kind;
  return { ...results, transactions: [...results.transactions.filter((t) => !same(t)), record] };
}

/** Results with the record of `kind` in `step` signed again at its nonce (a fee bump): the new bytes lead, the old hash joins `replaced`. */
export function withReplacement(results: IntentResults, step: number, kind: TxKind, signed: SignedFacts, at: string): IntentResults {
  const transactions = results.transactions.map((t) =>
    isSubTxRecord(t) && t.step === step && t.kind === kind
      ? { ...t, txHash: signed.txHash, raw: signed.raw, sentAt: at, replaced: [...(t.replaced ?? []), t.txHash] }
      : t,
  );
  return { ...results, transactions };
}

/** Results with `receipt` recorded on its sub-transaction (whichever of its hashes was mined becomes `txHash`) and the totals brought up to date. */
export function withReceipt(results: IntentResults, receipt: ReceiptFacts): IntentResults {
  const transactions = results.transactions.map((t) => {
    if (!isSubTxRecord(t) || !hashesOf(t).includes(receipt.txHash)) return t;
    const others = hashesOf(t).filter((h) => h !== receipt.txHash);
    const outcome = receipt.status === 'success' ? ('confirmed' as const) : ('reverted' as const);
    const record: SubTxRecord = { ...t, txHash: receipt.txHash, status: outcome, gasUsed: receipt.gasUsed.toString(), gasCostUsd: receipt.gasCostUsd };
    if (receipt.minted !== undefined) record.minted = receipt.minted.toString();
    if (others.length > 0) record.replaced = others;
    return record;
  });
  const totals = gasTotals(transactions);
  return { ...results, transactions, totalGasUsed: totals.gasUsed, totalGasCostUsd: totals.gasCostUsd };
}

/** One call of a user operation: the sub-transaction `kind` of step `step`. */
export interface OperationCall {
  step: number;
  kind: TxKind;
  /** Its step's main transaction (the step's `txHash` becomes the bundle's). */
  main: boolean;
}

/** A signed bundle as the chain port hands it over: the bundle's bytes and the operation's hash. */
export interface SignedOperationFacts extends Omit<SignedFacts, 'kind'> {
  userOpHash: Hex;
}

const isCall = (t: TransactionRecord, call: Pick<OperationCall, 'step' | 'kind'>): boolean => isSubTxRecord(t) && t.step === call.step && t.kind === call.kind;

/** Results with every call of a freshly signed operation recorded `signed`, all with the bundle's hash and bytes (persisted before broadcast). */
export function withOperationSigned(
  results: IntentResults,
  calls: readonly (OperationCall & { type: StepType })[],
  signed: SignedOperationFacts,
  at: string,
): IntentResults {
  const kept = results.transactions.filter((t) => !calls.some((c) => isCall(t, c)));
  const records = calls.map((c): SubTxRecord => ({
    type: c.type,
    kind: c.kind,
    chain: signed.chain,
    step: c.step,
    txHash: signed.txHash,
    raw: signed.raw,
    status: 'signed',
    sentAt: at,
    operation: signed.userOpHash,
  }));
  return { ...results, transactions: [...kept, ...records] };
}

/** Results with an operation's bundle signed again at its nonce (a fee bump): every call's record follows the new bytes. */
export function withOperationReplaced(results: IntentResults, bundleHash: Hex, signed: SignedFacts, at: string): IntentResults {
  const transactions = results.transactions.map((t) =>
    isSubTxRecord(t) && hashesOf(t).includes(bundleHash)
      ? { ...t, txHash: signed.txHash, raw: signed.raw, sentAt: at, replaced: [...(t.replaced ?? []), t.txHash] }
      : t,
  );
  return { ...results, transactions };
}

/** `total` shared among `n` records: the first takes the remainder. */
function shareOf(total: bigint, n: number, i: number): bigint {
  const each = total / BigInt(n);
  return i === 0 ? total - each * BigInt(n - 1) : each;
}

/**
 * Results with a mined operation's receipt. Success: every call confirmed,
 * the bundle's gas shared among them, each mint given what it delivered.
 * Failure at `failedCall`: the whole operation did nothing. Every call's
 * record is `reverted` (clients see the operation reverted whole); the
 * failing call's carries the gas, the others are `rolledBack`: a rolled-back
 * call of another step is sent again, in an operation without the failing
 * step, and its new record takes the old one's place.
 */
export function withOperationMined(results: IntentResults, calls: readonly OperationCall[], receipt: ReceiptFacts, failedCall: number): IntentResults {
  const inOp = (t: TransactionRecord): t is SubTxRecord => isSubTxRecord(t) && hashesOf(t).includes(receipt.txHash);
  let transactions: TransactionRecord[];
  if (receipt.status === 'success') {
    const ours = results.transactions.filter(inOp);
    let mintIndex = 0;
    transactions = results.transactions.map((t) => {
      if (!inOp(t)) return t;
      const i = ours.indexOf(t);
      const record: SubTxRecord = {
        ...t,
        txHash: receipt.txHash,
        status: 'confirmed',
        gasUsed: shareOf(receipt.gasUsed, ours.length, i).toString(),
        gasCostUsd: i === 0 ? receipt.gasCostUsd - (receipt.gasCostUsd / ours.length) * (ours.length - 1) : receipt.gasCostUsd / ours.length,
      };
      const others = hashesOf(t).filter((h) => h !== receipt.txHash);
      if (others.length > 0) record.replaced = others;
      else delete record.replaced;
      if (t.kind === 'mint') {
        const minted = receipt.mintedEach?.[mintIndex++] ?? (mintIndex === 1 ? receipt.minted : undefined);
        if (minted !== undefined) record.minted = minted.toString();
      }
      return record;
    });
  } else {
    const failed = calls[Math.min(Math.max(failedCall, 0), calls.length - 1)]!;
    transactions = results.transactions.map((t) => {
      if (!inOp(t)) return t;
      const others = hashesOf(t).filter((h) => h !== receipt.txHash);
      const own = isCall(t, failed);
      const record: SubTxRecord = {
        ...t,
        txHash: receipt.txHash,
        status: 'reverted',
        gasUsed: own ? receipt.gasUsed.toString() : '0',
        gasCostUsd: own ? receipt.gasCostUsd : 0,
      };
      if (others.length > 0) record.replaced = others;
      else delete record.replaced;
      if (!own) record.rolledBack = true;
      return record;
    });
  }
  const totals = gasTotals(transactions);
  return { ...results, transactions, totalGasUsed: totals.gasUsed, totalGasCostUsd: totals.gasCostUsd };
}
