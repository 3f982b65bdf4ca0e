import { DECISION_RETENTION_DAYS, type StandingDecision, type StandingIntent } from '../../domain/standingIntent';
import { DuplicateError, type StandingDecisionRepo, type StandingIntentRepo } from '../../ports/store';

const copy = <T>(v: T): T => structuredClone(v);
const RETENTION_MS = DECISION_RETENTION_DAYS * 86_400_000;

/** (key, id) descending: the newest-first order of both lists. */
function descending(a: readonly [string, string], b: readonly [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? 1 : -1;
  return a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0;
}

/** Standing intents in memory; one per (wallet, asset). */
export function createMemoryStandingIntents(): StandingIntentRepo {
  const byId = new Map<string, StandingIntent>();
  const byWalletAsset = new Map<string, string>();
  const walletAsset = (s: Pick<StandingIntent, 'walletId' | 'asset'>) => `${s.walletId}\u0000${s.asset}`;
  return {
    async insert(s) {
      if (byId.has(s.id)) throw new DuplicateError('standingIntents.id');
      if (byWalletAsset.has(walletAsset(s))) throw new DuplicateError('standingIntents.walletId_asset');
      byId.set(s.id, copy(s));
      byWalletAsset.set(walletAsset(s), s.id);
    },
    async get(id) {
      const s = byId.get(id);
      return s ? copy(s) : null;
    },
    async listByAccount(accountId, { limit, after }) {
      return [...byId.values()]
        .filter((s) => s.accountId === accountId && (after === undefined || descending([after.createdAt, after.id], [s.createdAt, s.id]) < 0))
        .sort((a, b) => descending([a.createdAt, a.id], [b.createdAt, b.id]))
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async countByAccount(accountId) {
      let n = 0;
      for (const s of byId.values()) if (s.accountId === accountId) n++;
      return n;
    },
    async listByWallet(walletId) {
      return [...byId.values()].filter((s) => s.walletId === walletId).map(copy);
    },
    async listActive() {
      return [...byId.values()]
        .filter((s) => s.status === 'active')
        .sort((a, b) => -descending([a.createdAt, a.id], [b.createdAt, b.id]))
        .map(copy);
    },
    async update(s, expectedVersion) {
      const cur = byId.get(s.id);
      if (!cur || cur.version !== expectedVersion) return false;
      byId.set(s.id, copy({ ...s, walletId: cur.walletId, asset: cur.asset }));
      return true;
    },
    async delete(id) {
      const s = byId.get(id);
      if (!s) return false;
      byId.delete(id);
      byWalletAsset.delete(walletAsset(s));
      return true;
    },
  };
}

/** Decisions in memory, one per (standing intent, sample minute); those past retention are dropped on insert and never listed. */
export function createMemoryStandingDecisions(clock: { now(): Date }): StandingDecisionRepo {
  const byId = new Map<string, StandingDecision>();
  const byKey = new Map<string, string>();
  const key = (d: Pick<StandingDecision, 'standingIntentId' | 'sampleAt'>) => `${d.standingIntentId}\u0000${d.sampleAt}`;
  const cutoff = () => new Date(clock.now().getTime() - RETENTION_MS).toISOString();
  const live = (d: StandingDecision) => d.decidedAt >= cutoff();
  let sweptAt = 0;
  // at most once a minute of the clock: decisions arrive once a minute per standing intent
  const sweep = () => {
    const now = clock.now().getTime();
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    const before = cutoff();
    for (const [id, d] of byId) {
      if (d.decidedAt >= before) continue;
      byId.delete(id);
      byKey.delete(key(d));
    }
  };
  return {
    async insertOnce(d) {
      sweep();
      if (byKey.has(key(d)) || byId.has(d.id)) return false;
      byId.set(d.id, copy(d));
      byKey.set(key(d), d.id);
      return true;
    },
    async settle(id, settlement) {
      const d = byId.get(id);
      if (!d || d.outcome !== 'rebalanced' || d.intentId !== undefined) return false;
      const { reason, rule, intentId, ...rest } = d;
      void reason;
      void rule;
      void intentId;
      const set = Object.fromEntries(Object.entries(settlement).filter(([, v]) => v !== undefined));
      byId.set(id, copy({ ...rest, ...set } as StandingDecision));
      return true;
    },
    async get(id) {
      const d = byId.get(id);
      return d && live(d) ? copy(d) : null;
    },
    async list(standingIntentId, { limit, after }) {
      return [...byId.values()]
        .filter((d) => d.standingIntentId === standingIntentId && live(d))
        .filter((d) => after === undefined || descending([after.sampleAt, after.id], [d.sampleAt, d.id]) < 0)
        .sort((a, b) => descending([a.sampleAt, a.id], [b.sampleAt, b.id]))
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async countRebalancedSince(standingIntentId, since) {
      let n = 0;
      for (const d of byId.values()) if (d.standingIntentId === standingIntentId && d.outcome === 'rebalanced' && d.sampleAt >= since && live(d)) n++;
      return n;
    },
    async deleteByStandingIntent(standingIntentId) {
      for (const [id, d] of byId) {
        if (d.standingIntentId !== standingIntentId) continue;
        byId.delete(id);
        byKey.delete(key(d));
      }
    },
  };
}
