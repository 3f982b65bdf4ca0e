import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import type { WebhookDelivery, WebhookEndpoint } from '../../src/domain/webhooks';
import { missingRaceIsolation } from './raceProbe';

/**
 * The WebhookRepo contract of src/ports/store.ts, run by every adapter
 * (webhooks.memory.test.ts, webhooks.mongo.test.ts). Each test uses fresh
 * random accounts and endpoints, so the suite can share one store; due
 * deliveries are claimed with instants far in the past or the future so
 * tests never take each other's.
 */

const hex = (n: number) => randomBytes(n).toString('hex');
const at = (ms: number) => new Date(ms).toISOString();

function endpoint(over: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: `svc_webhook_${hex(16)}`,
    accountId: `acct_${hex(16)}`,
    url: 'https://example.com/h',
    events: ['intent.completed'],
    secretCiphertext: 'c2VhbGVk',
    secretKeyVersion: 'v1',
    createdAt: at(Date.UTC(2026, 0, 1)),
    ...over,
  };
}

function delivery(e: WebhookEndpoint, over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: `msg_${hex(16)}`,
    endpointId: e.id,
    accountId: e.accountId,
    eventType: 'intent.completed',
    body: JSON.stringify({ type: 'intent.completed', data: { n: 1 } }),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at(Date.UTC(2026, 0, 1)),
    lastStatusCode: null,
    lastError: null,
    createdAt: at(Date.UTC(2026, 0, 1)),
    deliveredAt: null,
    claimedUntil: null,
    claimedBy: null,
    ...over,
  };
}

type ContractStore = Pick<Store, 'webhooks' | 'close' | 'kind' | 'usage'>;

export function describeWebhooksContract(name: string, makeStore: () => Promise<ContractStore>): void {
  describe(`webhooks contract: ${name}`, () => {
    let store: ContractStore;
    /** Null when this server isolates concurrent guarded updates (both probes of raceProbe.ts); else the capability line to print. */
    let missingIsolation: string | null = null;
    beforeAll(async () => {
      store = await makeStore();
      missingIsolation = await missingRaceIsolation(store, 'one-owner claims not asserted');
    });
    afterAll(async () => {
      await store?.close();
    });

    test('behavior: endpoints round-trip, list newest first per account, count, and delete with their deliveries', async () => {
      const accountId = `acct_${hex(16)}`;
      const a = endpoint({ accountId, createdAt: at(Date.UTC(2026, 0, 1)), description: 'first' });
      const b = endpoint({ accountId, createdAt: at(Date.UTC(2026, 0, 2)), events: ['intent.updated', 'intent.failed'] });
      await store.webhooks.insertEndpoint(a);
      await store.webhooks.insertEndpoint(b);
      await store.webhooks.insertEndpoint(endpoint());
      await expect(store.webhooks.insertEndpoint(a)).rejects.toMatchObject({ name: 'DuplicateError', index: 'webhookEndpoints.id' });
      expect(await store.webhooks.getEndpoint(a.id)).toEqual(a);
      expect((await store.webhooks.listEndpoints(accountId)).map((e) => e.id)).toEqual([b.id, a.id]);
      expect(await store.webhooks.countEndpoints(accountId)).toBe(2);
      const d = delivery(a);
      expect(await store.webhooks.insertDelivery(d)).toBe(true);
      expect(await store.webhooks.deleteEndpoint(a.id)).toBe(true);
      expect(await store.webhooks.deleteEndpoint(a.id)).toBe(false);
      expect(await store.webhooks.getEndpoint(a.id)).toBeNull();
      expect(await store.webhooks.getDelivery(d.id)).toBeNull();
      expect(await store.webhooks.countEndpoints(accountId)).toBe(1);
    });

    test('behavior: a delivery id is written once (a second insert is refused, nothing changed); the log lists newest first by cursor', async () => {
      const e = endpoint();
      await store.webhooks.insertEndpoint(e);
      const ds = [0, 1, 2, 3, 4].map((i) => delivery(e, { createdAt: at(Date.UTC(2026, 0, 1, 0, i)), id: `msg_${i}${hex(15)}` }));
      for (const d of ds) expect(await store.webhooks.insertDelivery(d)).toBe(true);
      expect(await store.webhooks.insertDelivery({ ...ds[0]!, body: 'changed' })).toBe(false);
      expect((await store.webhooks.getDelivery(ds[0]!.id))?.body).toBe(ds[0]!.body);
      const first = await store.webhooks.listDeliveries(e.id, { limit: 2 });
      expect(first.map((d) => d.id)).toEqual([ds[4]!.id, ds[3]!.id]);
      const rest = await store.webhooks.listDeliveries(e.id, { limit: 10, after: { createdAt: first[1]!.createdAt, id: first[1]!.id } });
      expect(rest.map((d) => d.id)).toEqual([ds[2]!.id, ds[1]!.id, ds[0]!.id]);
      expect(rest[2]).toEqual(ds[0]);
    });

    test('behavior: claimDue leases the due delivery soonest to one owner; a live lease is not taken, an expired one is; the outcome is written only by the holder', async () => {
      // instants far from the other tests' (year 2000), so no other test's delivery is due
      const e = endpoint();
      await store.webhooks.insertEndpoint(e);
      const t0 = Date.UTC(2000, 0, 1);
      const early = delivery(e, { nextAttemptAt: at(t0 - 2000) });
      const later = delivery(e, { nextAttemptAt: at(t0 - 1000) });
      const future = delivery(e, { nextAttemptAt: at(t0 + 60_000) });
      for (const d of [later, future, early]) await store.webhooks.insertDelivery(d);
      const now = at(t0);
      const a = await store.webhooks.claimDue(now, at(t0 + 30_000), 'worker_a');
      expect(a).toMatchObject({ id: early.id, claimedBy: 'worker_a', claimedUntil: at(t0 + 30_000) });
      const b = await store.webhooks.claimDue(now, at(t0 + 30_000), 'worker_b');
      expect(b?.id).toBe(later.id);
      expect(await store.webhooks.claimDue(now, at(t0 + 30_000), 'worker_c')).toBeNull();
      // concurrent claims of one due delivery: exactly one wins
      const lone = delivery(e, { nextAttemptAt: at(t0 - 500_000) });
      await store.webhooks.insertDelivery(lone);
      const claims = await Promise.all(['w1', 'w2', 'w3', 'w4', 'w5'].map((w) => store.webhooks.claimDue(at(t0 - 400_000), at(t0 - 370_000), w)));
      const winners = claims.filter((c) => c?.id === lone.id);
      if (missingIsolation) {
        console.log(missingIsolation);
        expect(winners.length).toBeGreaterThanOrEqual(1);
      } else {
        expect(winners).toHaveLength(1);
      }
      const holder = (await store.webhooks.getDelivery(lone.id))!.claimedBy!;
      expect(winners.map((w) => w!.claimedBy)).toContain(holder);
      expect(
        await store.webhooks.finishAttempt(lone.id, holder, {
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 204,
          lastError: null,
          deliveredAt: at(t0 - 399_000),
        }),
      ).toBe(true);
      // worker_a's lease runs out: another worker takes the delivery, and worker_a can no longer write
      const again = await store.webhooks.claimDue(at(t0 + 30_000), at(t0 + 60_000), 'worker_d');
      expect([early.id, later.id]).toContain(again?.id);
      const taken = again!.id === early.id ? 'worker_a' : 'worker_b';
      const outcome = { status: 'delivered' as const, attempts: 1, nextAttemptAt: null, lastStatusCode: 200, lastError: null, deliveredAt: at(t0 + 31_000) };
      expect(await store.webhooks.finishAttempt(again!.id, taken, outcome)).toBe(false);
      expect(await store.webhooks.finishAttempt(again!.id, 'worker_d', outcome)).toBe(true);
      expect(await store.webhooks.getDelivery(again!.id)).toMatchObject({ ...outcome, claimedBy: null, claimedUntil: null });
      // a delivered delivery is never due again, and its lease cannot be released
      expect(await store.webhooks.release(again!.id, 'worker_d')).toBe(false);
      await store.webhooks.deleteEndpoint(e.id);
    });

    test('behavior: claimDue passes over the accounts and endpoints it is told to skip, and takes the soonest of the rest', async () => {
      // instants of their own (year 2002), so no other test's delivery is due
      const a = endpoint();
      const a2 = endpoint({ accountId: a.accountId });
      const b = endpoint();
      for (const e of [a, a2, b]) await store.webhooks.insertEndpoint(e);
      const t0 = Date.UTC(2002, 0, 1);
      const oldA = delivery(a, { nextAttemptAt: at(t0 - 3000) });
      const oldA2 = delivery(a2, { nextAttemptAt: at(t0 - 2000) });
      const newB = delivery(b, { nextAttemptAt: at(t0 - 1000) });
      for (const d of [oldA, oldA2, newB]) await store.webhooks.insertDelivery(d);
      const lease = at(t0 + 30_000);
      expect((await store.webhooks.claimDue(at(t0), lease, 'w', { accounts: [a.accountId] }))?.id).toBe(newB.id);
      expect((await store.webhooks.claimDue(at(t0), lease, 'w', { endpoints: [a.id] }))?.id).toBe(oldA2.id);
      expect(await store.webhooks.claimDue(at(t0), lease, 'w', { accounts: [a.accountId], endpoints: [] })).toBeNull();
      expect((await store.webhooks.claimDue(at(t0), lease, 'w', { accounts: [], endpoints: [] }))?.id).toBe(oldA.id);
      for (const e of [a, a2, b]) await store.webhooks.deleteEndpoint(e.id);
    });

    test('behavior: a failed attempt reschedules; release gives the lease back without an attempt; a failed delivery is never due again', async () => {
      const e = endpoint();
      await store.webhooks.insertEndpoint(e);
      const t0 = Date.UTC(2001, 0, 1);
      const d = delivery(e, { nextAttemptAt: at(t0 - 1) });
      await store.webhooks.insertDelivery(d);
      expect((await store.webhooks.claimDue(at(t0), at(t0 + 30_000), 'w'))?.id).toBe(d.id);
      expect(
        await store.webhooks.finishAttempt(d.id, 'w', {
          status: 'pending',
          attempts: 1,
          nextAttemptAt: at(t0 + 5_000),
          lastStatusCode: 500,
          lastError: 'the endpoint answered 500',
          deliveredAt: null,
        }),
      ).toBe(true);
      expect(await store.webhooks.claimDue(at(t0 + 4_999), at(t0 + 30_000), 'w')).toBeNull();
      const second = await store.webhooks.claimDue(at(t0 + 5_000), at(t0 + 35_000), 'w2');
      expect(second).toMatchObject({ id: d.id, attempts: 1, lastStatusCode: 500 });
      expect(await store.webhooks.release(d.id, 'w2')).toBe(true);
      expect(await store.webhooks.getDelivery(d.id)).toMatchObject({ attempts: 1, claimedBy: null, claimedUntil: null, status: 'pending' });
      expect((await store.webhooks.claimDue(at(t0 + 5_000), at(t0 + 35_000), 'w3'))?.id).toBe(d.id);
      expect(
        await store.webhooks.finishAttempt(d.id, 'w3', {
          status: 'failed',
          attempts: 2,
          nextAttemptAt: null,
          lastStatusCode: null,
          lastError: 'no answer',
          deliveredAt: null,
        }),
      ).toBe(true);
      expect(await store.webhooks.claimDue(at(t0 + 10 ** 9), at(t0 + 10 ** 9 + 1), 'w4').then((x) => x?.id === d.id)).toBe(false);
      await store.webhooks.deleteEndpoint(e.id);
    });
  });
}
