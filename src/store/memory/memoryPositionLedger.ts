import type { PositionLedgerEntry, PositionLedgerRepo } from '../../ports/store';

const entryKey = (intentId: string, stepIndex: number) => `${intentId}\u0000${stepIndex}`;

/** Ledger order: completion time, then intent and step (two steps of one instant keep one order everywhere). */
export function ledgerOrder(a: PositionLedgerEntry, b: PositionLedgerEntry): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.intentId !== b.intentId) return a.intentId < b.intentId ? -1 : 1;
  return a.stepIndex - b.stepIndex;
}

/** The position ledger in memory: one entry per (intentId, stepIndex), as the unique key on MongoDB keeps it. */
export function createMemoryPositionLedger(): PositionLedgerRepo {
  const byWallet = new Map<string, PositionLedgerEntry[]>();
  const keys = new Set<string>();

  return {
    async record(entry) {
      const key = entryKey(entry.intentId, entry.stepIndex);
      if (keys.has(key)) return false;
      keys.add(key);
      const list = byWallet.get(entry.walletId) ?? [];
      list.push(structuredClone(entry));
      byWallet.set(entry.walletId, list);
      return true;
    },
    async listByWallet(walletId) {
      return (byWallet.get(walletId) ?? []).map((e) => structuredClone(e)).sort(ledgerOrder);
    },
  };
}
