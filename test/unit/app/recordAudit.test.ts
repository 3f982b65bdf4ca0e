import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { actorOf, failedAuditAppends, recordAudit, withoutSecrets } from '../../../src/app/audit/recordAudit';
import type { Principal } from '../../../src/app/accounts/principal';
import type { Account } from '../../../src/domain/types';

const account: Account = { id: 'acct_1', plan: 'pro', createdAt: '2026-01-01T00:00:00.000Z' };
const at = new Date('2026-03-01T12:00:00.000Z');

describe('recordAudit', () => {
  test('behavior: actorOf: an API key is its key id, a dashboard session its user id, a paid proof nobody', () => {
    expect(actorOf({ account, keyId: 'key_1', scopes: ['read'], via: 'apiKey' })).toEqual({ type: 'apiKey', id: 'key_1' });
    const session: Principal = {
      account,
      keyId: null,
      scopes: ['read', 'write'],
      via: 'session',
      user: { id: 'user_7', email: 'a@example.com', sessionId: 'secret-session-id' },
    };
    expect(actorOf(session)).toEqual({ type: 'session', id: 'user_7' });
    expect(actorOf({ account, keyId: null, scopes: ['read'], via: 'payment' })).toBeNull();
  });

  test("behavior: the event gets an svc_audit_ id and the clock's time, and is appended", async () => {
    const store = createMemoryStore({ now: () => at });
    const e = await recordAudit(
      { store, clock: { now: () => at } },
      { accountId: 'acct_1', type: 'apikey.created', actor: { type: 'admin', id: null }, subject: { keyId: 'key_1' }, details: { prefix: 'svc_sk_ab12' } },
    );
    expect(e).toMatchObject({ id: expect.stringMatching(/^svc_audit_[0-9a-f]{32}$/), at: at.toISOString(), type: 'apikey.created' });
    expect(await store.auditLog.list('acct_1', { limit: 5 })).toEqual([e]);
  });

  test('behavior: a null actor (a paid read) records nothing', async () => {
    const store = createMemoryStore();
    expect(
      await recordAudit({ store, clock: { now: () => new Date() } }, { accountId: 'acct_1', type: 'intent.created', actor: null, subject: {}, details: {} }),
    ).toBeNull();
    expect(await store.auditLog.list('acct_1', { limit: 5 })).toEqual([]);
  });

  test('error: a failing append never throws: it is logged as a warning and counted; a failing logger is survived too', async () => {
    const store = createMemoryStore();
    store.auditLog.append = () => Promise.reject(new Error('database down'));
    const warn = jest.fn();
    const before = failedAuditAppends();
    const input = {
      accountId: 'acct_1',
      type: 'apikey.revoked' as const,
      actor: { type: 'admin' as const, id: null },
      subject: { keyId: 'key_9' },
      details: {},
    };
    await expect(recordAudit({ store, clock: { now: () => at }, logger: { warn } }, input)).resolves.toBeNull();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ auditEvent: { type: 'apikey.revoked', accountId: 'acct_1', subject: { keyId: 'key_9' } } }),
      'audit event not recorded; the action stands',
    );
    const throwing = {
      warn: () => {
        throw new Error('logger down');
      },
    };
    await expect(recordAudit({ store, clock: { now: () => at }, logger: throwing }, input)).resolves.toBeNull();
    await expect(
      recordAudit(
        {
          store,
          clock: {
            now: () => {
              throw new Error('clock down');
            },
          },
        },
        input,
      ),
    ).resolves.toBeNull();
    expect(failedAuditAppends()).toBe(before + 3);
  });

  test('behavior: secrets never reach the log: secret-named fields dropped at any depth, full API keys cut to their display prefix', () => {
    const key = 'svc_sk_' + 'ab'.repeat(32);
    expect(
      withoutSecrets({
        name: `named ${key}`,
        apiKey: key,
        nested: { privateKey: '0xabc', proof: 'x', list: [{ token: 't', keep: key }] },
        prefix: 'svc_sk_abab',
        keyId: 'key_1',
      }),
    ).toEqual({ name: 'named svc_sk_abab…', nested: { list: [{ keep: 'svc_sk_abab…' }] }, prefix: 'svc_sk_abab', keyId: 'key_1' });
  });
});
