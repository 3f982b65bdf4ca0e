import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import { AUDIT_RETENTION_MS, type AuditEvent } from '../../src/domain/audit';
import { newId } from '../../src/domain/ids';

/**
 * The AuditLog contract of src/ports/store.ts. Every adapter runs this same
 * suite (auditLog.memory.test.ts, auditLog.mongo.test.ts). Each test uses
 * fresh random accounts, so the suite can share one store (one database).
 * Times are recent (minutes ago) so the 90-day retention keeps them.
 */

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const account = () => `acct_${hex(16)}`;
const walletId = () => `svc_wallet_${hex(16)}`;
const intentId = () => `intent_${hex(16)}`;
/** `minutes` before a fixed instant a little before the test run: well inside the retention window. */
const base = Date.now() - 60 * 60_000;
const ago = (minutes: number) => new Date(base - minutes * 60_000).toISOString();

function event(over: Partial<AuditEvent> & { accountId: string }): AuditEvent {
  return {
    id: newId('audit'),
    at: ago(0),
    type: 'intent.created',
    actor: { type: 'apiKey', id: `key_${hex(16)}` },
    subject: {},
    details: {},
    ...over,
  };
}

/** Every page of `query` by cursor (the last event of each page), `limit` at a time. */
async function allPages(
  store: Pick<Store, 'auditLog'>,
  accountId: string,
  limit: number,
  filters: { type?: AuditEvent['type']; walletId?: string } = {},
): Promise<AuditEvent[][]> {
  const pages: AuditEvent[][] = [];
  let after: { at: string; id: string } | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await store.auditLog.list(accountId, { ...filters, limit, after });
    if (page.length === 0) break;
    pages.push(page);
    const last = page[page.length - 1]!;
    after = { at: last.at, id: last.id };
  }
  return pages;
}

/** Registers the audit log contract for one adapter. */
export function describeAuditLogContract(name: string, makeStore: () => Promise<Pick<Store, 'auditLog' | 'close'>>): void {
  describe(`audit log contract: ${name}`, () => {
    let store: Pick<Store, 'auditLog' | 'close'>;

    beforeAll(async () => {
      store = await makeStore();
    });

    afterAll(async () => {
      await store?.close();
    });

    test('behavior: append → list round-trips an event with nested details; absent subject ids stay absent', async () => {
      const acct = account();
      const e = event({
        accountId: acct,
        type: 'intent.failed',
        actor: { type: 'system', id: null },
        subject: { walletId: walletId(), intentId: intentId() },
        details: { code: 'INSUFFICIENT_FUNDS', message: 'Not enough USDC', nested: { list: [1, 'two', null], flag: true } },
      });
      await store.auditLog.append(e);
      const [loaded] = await store.auditLog.list(acct, { limit: 10 });
      expect(loaded).toEqual(e);
      expect(Object.keys(loaded!).sort()).toEqual(['accountId', 'actor', 'at', 'details', 'id', 'subject', 'type']);
      expect(Object.keys(loaded!.subject).sort()).toEqual(['intentId', 'walletId']);
    });

    test('behavior: newest first by `at`, then by id descending when two events share an instant', async () => {
      const acct = account();
      const same = ago(5);
      const events = [
        event({ accountId: acct, at: ago(10) }),
        event({ accountId: acct, at: ago(1) }),
        event({ accountId: acct, at: same }),
        event({ accountId: acct, at: same }),
        event({ accountId: acct, at: ago(20) }),
      ];
      for (const e of events) await store.auditLog.append(e);
      const listed = await store.auditLog.list(acct, { limit: 10 });
      const expected = [...events].sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.id < b.id ? 1 : -1));
      expect(listed.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    });

    test('behavior: cursor paging walks every event exactly once, in order, with no gap or repeat (ties on `at` included)', async () => {
      const acct = account();
      const events: AuditEvent[] = [];
      // 23 events over 8 instants: pages of 5 end inside groups of equal `at`.
      for (let i = 0; i < 23; i++) events.push(event({ accountId: acct, at: ago(i % 8) }));
      for (const e of events) await store.auditLog.append(e);
      const pages = await allPages(store, acct, 5);
      expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
      const walked = pages.flat();
      const expected = [...events].sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.id < b.id ? 1 : -1));
      expect(walked.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    });

    test('behavior: filters by type, subject wallet, subject intent and since, alone and together, and page within a filter', async () => {
      const acct = account();
      const w1 = walletId();
      const w2 = walletId();
      const i1 = intentId();
      const events = [
        event({ accountId: acct, at: ago(30), type: 'apikey.created', actor: { type: 'admin', id: null }, subject: { keyId: `key_${hex(16)}` } }),
        event({ accountId: acct, at: ago(20), type: 'intent.created', subject: { walletId: w1, intentId: i1 } }),
        event({ accountId: acct, at: ago(10), type: 'intent.failed', actor: { type: 'system', id: null }, subject: { walletId: w1, intentId: i1 } }),
        event({ accountId: acct, at: ago(5), type: 'intent.created', subject: { walletId: w2, intentId: intentId() } }),
        event({ accountId: acct, at: ago(2), type: 'wallet.policy_set', subject: { walletId: w1, policyId: `svc_policy_${hex(16)}` } }),
      ];
      for (const e of events) await store.auditLog.append(e);
      const ids = async (q: Parameters<Store['auditLog']['list']>[1]) => (await store.auditLog.list(acct, q)).map((e) => e.id);
      const [key, created1, failed1, created2, policySet] = events.map((e) => e.id);
      expect(await ids({ limit: 10, type: 'intent.created' })).toEqual([created2, created1]);
      expect(await ids({ limit: 10, walletId: w1 })).toEqual([policySet, failed1, created1]);
      expect(await ids({ limit: 10, intentId: i1 })).toEqual([failed1, created1]);
      expect(await ids({ limit: 10, since: ago(10) })).toEqual([policySet, created2, failed1]); // since is inclusive
      expect(await ids({ limit: 10, type: 'intent.created', walletId: w1, since: ago(25) })).toEqual([created1]);
      expect(await ids({ limit: 10, type: 'apikey.revoked' })).toEqual([]);
      expect(await ids({ limit: 10, walletId: walletId() })).toEqual([]);
      expect(await ids({ limit: 10 })).toEqual([policySet, created2, failed1, created1, key]);
      const pages = await allPages(store, acct, 1, { walletId: w1 });
      expect(pages.map((p) => p.map((e) => e.id))).toEqual([[policySet], [failed1], [created1]]);
    });

    test('behavior: accounts are isolated: an account lists only its own events, whatever the filter or cursor', async () => {
      const a = account();
      const b = account();
      const shared = walletId();
      const ea = event({ accountId: a, at: ago(3), subject: { walletId: shared } });
      const eb = event({ accountId: b, at: ago(2), subject: { walletId: shared } });
      await store.auditLog.append(ea);
      await store.auditLog.append(eb);
      expect((await store.auditLog.list(a, { limit: 10 })).map((e) => e.id)).toEqual([ea.id]);
      expect((await store.auditLog.list(b, { limit: 10, walletId: shared })).map((e) => e.id)).toEqual([eb.id]);
      // a cursor taken from the other account's list still lists only this account's events
      expect((await store.auditLog.list(a, { limit: 10, after: { at: ago(0), id: eb.id } })).map((e) => e.id)).toEqual([ea.id]);
      expect(await store.auditLog.list(account(), { limit: 10 })).toEqual([]);
    });

    test('behavior: 90-day retention: an event older than 90 days is never listed; one just inside the window is', async () => {
      const acct = account();
      const now = Date.now();
      const expired = event({ accountId: acct, at: new Date(now - AUDIT_RETENTION_MS - 60_000).toISOString() });
      const old = event({ accountId: acct, at: new Date(now - AUDIT_RETENTION_MS + 60 * 60_000).toISOString() });
      const recent = event({ accountId: acct, at: ago(0) });
      for (const e of [expired, old, recent]) await store.auditLog.append(e);
      expect((await store.auditLog.list(acct, { limit: 10 })).map((e) => e.id)).toEqual([recent.id, old.id]);
      expect((await store.auditLog.list(acct, { limit: 10, since: new Date(now - 2 * AUDIT_RETENTION_MS).toISOString() })).map((e) => e.id)).toEqual([
        recent.id,
        old.id,
      ]);
    });

    test('behavior: a limit of 0 lists nothing; events are copies (changing one changes nothing stored)', async () => {
      const acct = account();
      const e = event({ accountId: acct, details: { keyPrefix: 'svc_sk_ab12' } });
      await store.auditLog.append(e);
      e.details.keyPrefix = 'changed';
      expect(await store.auditLog.list(acct, { limit: 0 })).toEqual([]);
      const [first] = await store.auditLog.list(acct, { limit: 1 });
      expect(first!.details).toEqual({ keyPrefix: 'svc_sk_ab12' });
      first!.details.keyPrefix = 'changed again';
      expect((await store.auditLog.list(acct, { limit: 1 }))[0]!.details).toEqual({ keyPrefix: 'svc_sk_ab12' });
    });
  });
}
