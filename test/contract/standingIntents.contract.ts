import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import { skippedDecision } from '../helpers/standingSeed';
import { DECISION_RETENTION_DAYS, type StandingDecision, type StandingIntent } from '../../src/domain/standingIntent';

/**
 * The StandingIntentRepo and StandingDecisionRepo contract of
 * src/ports/store.ts, run by every adapter (standingIntents.memory.test.ts,
 * standingIntents.mongo.test.ts). Each test uses fresh random accounts,
 * wallets and standing intents, so the suite can share one store.
 */

const hex = (n: number) => randomBytes(n).toString('hex');
const MIN = 60_000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** A whole minute `n` minutes ago. */
const minutesAgo = (n: number) => iso(Math.floor(Date.now() / MIN) * MIN - n * MIN);

function standing(over: Partial<StandingIntent> = {}): StandingIntent {
  return {
    id: `svc_standing_${hex(16)}`,
    accountId: `acct_${hex(16)}`,
    walletId: `svc_wallet_${hex(16)}`,
    asset: 'USDC',
    horizonDays: 30,
    minGainUsd: 1,
    maxMovesPerDay: 2,
    status: 'active',
    createdAt: iso(Date.UTC(2026, 0, 1)),
    updatedAt: iso(Date.UTC(2026, 0, 1)),
    version: 1,
    ...over,
  };
}

function decision(s: StandingIntent, over: Partial<StandingDecision> = {}): StandingDecision {
  return { ...skippedDecision(s, over.sampleAt ?? minutesAgo(1)), ...over };
}

type ContractStore = Pick<Store, 'standingIntents' | 'standingDecisions' | 'close'>;

export function describeStandingIntentsContract(name: string, makeStore: () => Promise<ContractStore>): void {
  describe(`standing intents contract: ${name}`, () => {
    let store: ContractStore;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });

    test('behavior: standing intents round-trip, list newest first per account by cursor, count, and delete', async () => {
      const accountId = `acct_${hex(16)}`;
      const a = standing({ accountId, createdAt: iso(Date.UTC(2026, 0, 1)), amount: '250' });
      const b = standing({ accountId, createdAt: iso(Date.UTC(2026, 0, 2)), asset: 'USDT' });
      const c = standing({ accountId, createdAt: iso(Date.UTC(2026, 0, 2)), asset: 'DAI' });
      for (const s of [a, b, c, standing()]) await store.standingIntents.insert(s);
      expect(await store.standingIntents.get(a.id)).toEqual(a);
      expect(await store.standingIntents.get(`svc_standing_${hex(16)}`)).toBeNull();
      const [newer, older] = b.id > c.id ? [b, c] : [c, b];
      expect((await store.standingIntents.listByAccount(accountId, { limit: 10 })).map((s) => s.id)).toEqual([newer.id, older.id, a.id]);
      const first = await store.standingIntents.listByAccount(accountId, { limit: 1 });
      expect(first.map((s) => s.id)).toEqual([newer.id]);
      const rest = await store.standingIntents.listByAccount(accountId, { limit: 10, after: { createdAt: first[0]!.createdAt, id: first[0]!.id } });
      expect(rest.map((s) => s.id)).toEqual([older.id, a.id]);
      expect(await store.standingIntents.listByAccount(accountId, { limit: 0 })).toEqual([]);
      expect(await store.standingIntents.countByAccount(accountId)).toBe(3);
      expect(await store.standingIntents.delete(a.id)).toBe(true);
      expect(await store.standingIntents.delete(a.id)).toBe(false);
      expect(await store.standingIntents.get(a.id)).toBeNull();
      expect(await store.standingIntents.countByAccount(accountId)).toBe(2);
    });

    test('behavior: one standing intent per wallet and asset (DuplicateError names the key); deleting it frees the pair', async () => {
      const a = standing();
      await store.standingIntents.insert(a);
      await expect(store.standingIntents.insert(a)).rejects.toMatchObject({ name: 'DuplicateError', index: 'standingIntents.id' });
      const twin = standing({ walletId: a.walletId, accountId: a.accountId });
      await expect(store.standingIntents.insert(twin)).rejects.toMatchObject({ name: 'DuplicateError', index: 'standingIntents.walletId_asset' });
      // ten creates at once: exactly one wins, every other is the wallet-and-asset duplicate (what the use case answers 409 with)
      const racers = Array.from({ length: 10 }, () => standing({ walletId: a.walletId, asset: 'WETH' }));
      const results = await Promise.allSettled(racers.map((s) => store.standingIntents.insert(s)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { name: string; index: string }] : []));
      expect(lost.map((e) => [e.name, e.index])).toEqual(lost.map(() => ['DuplicateError', 'standingIntents.walletId_asset']));
      await store.standingIntents.insert(standing({ walletId: a.walletId, asset: 'DAI' }));
      expect((await store.standingIntents.listByWallet(a.walletId)).map((s) => s.asset).sort()).toEqual(['DAI', 'USDC', 'WETH']);
      await store.standingIntents.delete(a.id);
      await store.standingIntents.insert(twin);
      expect(await store.standingIntents.get(twin.id)).toEqual(twin);
    });

    test('behavior: update is version-checked (a stale version writes nothing); listActive leaves paused ones out', async () => {
      const a = standing();
      await store.standingIntents.insert(a);
      const paused = { ...a, status: 'paused' as const, version: 2, updatedAt: iso(Date.UTC(2026, 0, 3)) };
      expect(await store.standingIntents.update(paused, 1)).toBe(true);
      expect(await store.standingIntents.update({ ...a, status: 'active', version: 2 }, 1)).toBe(false);
      expect(await store.standingIntents.get(a.id)).toEqual(paused);
      expect((await store.standingIntents.listActive()).some((s) => s.id === a.id)).toBe(false);
      const resumed = { ...paused, status: 'active' as const, version: 3, lastDecisionAt: minutesAgo(2), lastIntentId: `intent_${hex(16)}` };
      expect(await store.standingIntents.update(resumed, 2)).toBe(true);
      expect((await store.standingIntents.listActive()).find((s) => s.id === a.id)).toEqual(resumed);
      expect(await store.standingIntents.update({ ...standing(), version: 2 }, 1)).toBe(false);
    });

    test('behavior: one decision per standing intent and sample minute — a second insert (or a racing one) is "already decided" and writes nothing', async () => {
      const s = standing();
      const at = minutesAgo(3);
      const first = decision(s, { sampleAt: at });
      expect(await store.standingDecisions.insertOnce(first)).toBe(true);
      expect(await store.standingDecisions.insertOnce(decision(s, { sampleAt: at, outcome: 'rebalanced', reason: undefined }))).toBe(false);
      expect(await store.standingDecisions.get(first.id)).toEqual(first);
      const next = minutesAgo(2);
      const racers = Array.from({ length: 5 }, () => decision(s, { sampleAt: next }));
      const won = await Promise.all(racers.map((d) => store.standingDecisions.insertOnce(d)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await store.standingDecisions.list(s.id, { limit: 10 })).map((d) => d.sampleAt)).toEqual([next, at]);
      // another standing intent's decision of the same minute is its own
      expect(await store.standingDecisions.insertOnce(decision(standing(), { sampleAt: at }))).toBe(true);
    });

    test('behavior: decisions list newest first by cursor; settle records the intent or turns a move into a skip with its rule', async () => {
      const s = standing();
      const ds = [5, 4, 3, 2].map((n) => decision(s, { sampleAt: minutesAgo(n) }));
      for (const d of ds) await store.standingDecisions.insertOnce(d);
      const page = await store.standingDecisions.list(s.id, { limit: 2 });
      expect(page.map((d) => d.id)).toEqual([ds[3]!.id, ds[2]!.id]);
      const more = await store.standingDecisions.list(s.id, { limit: 10, after: { sampleAt: page[1]!.sampleAt, id: page[1]!.id } });
      expect(more.map((d) => d.id)).toEqual([ds[1]!.id, ds[0]!.id]);
      const moved = decision(s, { sampleAt: minutesAgo(1), outcome: 'rebalanced', reason: undefined });
      await store.standingDecisions.insertOnce(moved);
      const intentId = `intent_${hex(16)}`;
      expect(await store.standingDecisions.settle(moved.id, { outcome: 'rebalanced', intentId })).toBe(true);
      expect(await store.standingDecisions.get(moved.id)).toEqual({ ...moved, intentId });
      // settled once: a second settlement (another instance's) changes nothing, nor does one of a decision that did not move
      expect(await store.standingDecisions.settle(moved.id, { outcome: 'skipped', reason: 'interrupted' })).toBe(false);
      expect(await store.standingDecisions.get(moved.id)).toEqual({ ...moved, intentId });
      expect(await store.standingDecisions.settle(ds[3]!.id, { outcome: 'rebalanced', intentId })).toBe(false);
      expect(await store.standingDecisions.get(ds[3]!.id)).toEqual(ds[3]);
      const refusedMove = decision(s, { sampleAt: minutesAgo(0.5), outcome: 'rebalanced', reason: undefined });
      await store.standingDecisions.insertOnce(refusedMove);
      expect(await store.standingDecisions.settle(refusedMove.id, { outcome: 'skipped', reason: 'policy', rule: 'chains' })).toBe(true);
      const { reason: _none, ...refusedBase } = refusedMove;
      void _none;
      expect(await store.standingDecisions.get(refusedMove.id)).toEqual({ ...refusedBase, outcome: 'skipped', reason: 'policy', rule: 'chains' });
    });

    test('behavior: count of moves since an instant counts only rebalanced decisions of that standing intent at or after it', async () => {
      const s = standing();
      await store.standingDecisions.insertOnce(decision(s, { sampleAt: minutesAgo(30), outcome: 'rebalanced', reason: undefined }));
      await store.standingDecisions.insertOnce(decision(s, { sampleAt: minutesAgo(20), outcome: 'rebalanced', reason: undefined }));
      await store.standingDecisions.insertOnce(decision(s, { sampleAt: minutesAgo(10) }));
      await store.standingDecisions.insertOnce(decision(standing(), { sampleAt: minutesAgo(10), outcome: 'rebalanced', reason: undefined }));
      expect(await store.standingDecisions.countRebalancedSince(s.id, minutesAgo(60))).toBe(2);
      expect(await store.standingDecisions.countRebalancedSince(s.id, minutesAgo(20))).toBe(1);
      expect(await store.standingDecisions.countRebalancedSince(s.id, minutesAgo(19))).toBe(0);
    });

    test(`behavior: decisions older than ${DECISION_RETENTION_DAYS} days are never listed or counted; deleting a standing intent's decisions removes them all`, async () => {
      const s = standing();
      const old = Date.now() - (DECISION_RETENTION_DAYS + 1) * DAY;
      const stale = decision(s, { sampleAt: iso(Math.floor(old / MIN) * MIN), decidedAt: iso(old), outcome: 'rebalanced', reason: undefined });
      expect(await store.standingDecisions.insertOnce(stale)).toBe(true);
      const fresh = decision(s);
      await store.standingDecisions.insertOnce(fresh);
      expect((await store.standingDecisions.list(s.id, { limit: 10 })).map((d) => d.id)).toEqual([fresh.id]);
      expect(await store.standingDecisions.get(stale.id)).toBeNull();
      expect(await store.standingDecisions.countRebalancedSince(s.id, iso(old - DAY))).toBe(0);
      await store.standingDecisions.deleteByStandingIntent(s.id);
      expect(await store.standingDecisions.list(s.id, { limit: 10 })).toEqual([]);
    });
  });
}
