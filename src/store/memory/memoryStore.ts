import { createSystemClock, type Clock } from '../../domain/clock';
import type { Account, ApiKeyRecord, IdempotencyRecord, Wallet, WalletKeyRecord } from '../../domain/types';
import { DuplicateError, type Store } from '../../ports/store';
import { createMemoryIntents } from './memoryIntents';
import { createMemoryIntentEvents } from './memoryIntentEvents';
import { createMemoryAuditLog } from './memoryAuditLog';
import { createMemorySessions, createMemoryUsers } from './memorySignIn';
import { createMemoryPolicies } from './memoryPolicies';
import { createMemoryWebhooks } from './memoryWebhooks';
import { createMemoryRateHistory } from './memoryRateHistory';
import { createMemoryPaymentLocks } from './memoryPaymentLocks';
import { createMemoryIntentLeases } from './memoryIntentLeases';
import { createMemoryNonces } from './memoryNonces';
import { createMemoryPositionLedger } from './memoryPositionLedger';
import { createMemoryStandingDecisions, createMemoryStandingIntents } from './memoryStandingIntents';

/** Structured clone so callers never share mutable state with the store (as with a real database). */
const copy = <T>(v: T): T => structuredClone(v);

const SWEEP_AT = 10_000;

/** Drops expired counters so the map stays bounded by live windows. */
function sweep(m: Map<string, { expiresAt: number }>, now: number): void {
  for (const [k, v] of m) if (v.expiresAt <= now) m.delete(k);
}

/** In-memory adapter: the embedded default, used with sandbox chains only (everything ephemeral together). */
export function createMemoryStore(clock: Pick<Clock, 'now'> = createSystemClock()): Store {
  const accounts = new Map<string, Account>();
  const keys = new Map<string, ApiKeyRecord>();
  const keyByHash = new Map<string, string>();
  const wallets = new Map<string, Wallet>();
  const walletByUser = new Map<string, string>();
  const walletKeys = new Map<string, WalletKeyRecord>();
  const counters = new Map<string, { value: number; expiresAt: number }>();
  const idem = new Map<string, IdempotencyRecord>();
  const paymentNonces = new Set<string>();
  const userKey = (accountId: string, userId: string) => `${accountId}\u0000${userId}`;
  const idemKey = (scope: string, key: string) => `${scope}\u0000${key}`;
  const intents = createMemoryIntents();
  const live = <T extends { expiresAt: number }>(v: T | undefined): T | undefined => (v && v.expiresAt > clock.now().getTime() ? v : undefined);

  return {
    kind: 'memory',
    accounts: {
      async insert(a) {
        if (accounts.has(a.id)) throw new DuplicateError('accounts.id');
        accounts.set(a.id, copy(a));
      },
      async get(id) {
        const a = accounts.get(id);
        return a ? copy(a) : null;
      },
    },
    apiKeys: {
      async insert(k) {
        if (keys.has(k.id)) throw new DuplicateError('apiKeys.id');
        if (keyByHash.has(k.hash)) throw new DuplicateError('apiKeys.hash');
        keys.set(k.id, copy(k));
        keyByHash.set(k.hash, k.id);
      },
      async get(id) {
        const k = keys.get(id);
        return k ? copy(k) : null;
      },
      async findByHash(hash) {
        const id = keyByHash.get(hash);
        const k = id ? keys.get(id) : undefined;
        return k ? copy(k) : null;
      },
      async listByAccount(accountId) {
        return [...keys.values()].filter((k) => k.accountId === accountId).map(copy);
      },
      async revoke(id, at) {
        const k = keys.get(id);
        if (!k) return false;
        if (!k.revokedAt) k.revokedAt = at;
        return true;
      },
      async recordUse(uses) {
        for (const { id, at } of uses) {
          const k = keys.get(id);
          if (k && (!k.lastUsedAt || k.lastUsedAt < at)) k.lastUsedAt = at;
        }
      },
    },
    wallets: {
      async insert(w) {
        if (wallets.has(w.id)) throw new DuplicateError('wallets.id');
        const uk = userKey(w.accountId, w.userId);
        if (walletByUser.has(uk)) throw new DuplicateError('wallets.accountId_userId');
        wallets.set(w.id, copy(w));
        walletByUser.set(uk, w.id);
      },
      async getById(id) {
        const w = wallets.get(id);
        return w ? copy(w) : null;
      },
      async getByUserId(accountId, userId) {
        const id = walletByUser.get(userKey(accountId, userId));
        const w = id ? wallets.get(id) : undefined;
        return w ? copy(w) : null;
      },
      async countByAccount(accountId) {
        let n = 0;
        for (const w of wallets.values()) if (w.accountId === accountId) n++;
        return n;
      },
      async setPolicy(walletId, policyId) {
        const w = wallets.get(walletId);
        if (w) w.policyId = policyId;
      },
      async countByPolicy(policyId) {
        let n = 0;
        for (const w of wallets.values()) if (w.policyId === policyId) n++;
        return n;
      },
      async countWithoutPolicy(accountId) {
        let n = 0;
        for (const w of wallets.values()) if (w.accountId === accountId && !w.policyId) n++;
        return n;
      },
      async listByAccount(accountId, limit) {
        return [...wallets.values()]
          .filter((w) => w.accountId === accountId)
          .sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1))
          .slice(0, Math.max(0, limit))
          .map(copy);
      },
    },
    walletKeys: {
      async insert(r) {
        if (walletKeys.has(r.walletId)) throw new DuplicateError('walletKeys.walletId');
        walletKeys.set(r.walletId, copy(r));
      },
      async get(walletId) {
        const r = walletKeys.get(walletId);
        return r ? copy(r) : null;
      },
      async list(after, limit) {
        return [...walletKeys.values()]
          .filter((r) => after === undefined || r.walletId > after)
          .sort((a, b) => (a.walletId < b.walletId ? -1 : 1))
          .slice(0, limit)
          .map(copy);
      },
      async replace(r) {
        walletKeys.set(r.walletId, copy(r));
      },
      async delete(walletId) {
        walletKeys.delete(walletId);
      },
    },
    usage: {
      // A live counter is updated in place (no entry allocated per request); a new or expired one starts over.
      async increment(key, by, expiresAt) {
        if (counters.size > SWEEP_AT) sweep(counters, clock.now().getTime());
        const cur = live(counters.get(key));
        if (cur) return (cur.value += by);
        counters.set(key, { value: by, expiresAt: expiresAt.getTime() });
        return by;
      },
      async incrementIfAtMost(key, by, max, expiresAt) {
        const cur = live(counters.get(key));
        const value = (cur?.value ?? 0) + by;
        if (value > max) return null;
        if (cur) cur.value = value;
        else counters.set(key, { value, expiresAt: expiresAt.getTime() });
        return value;
      },
      async get(key) {
        return live(counters.get(key))?.value ?? 0;
      },
      async getMany(keys) {
        return keys.map((key) => live(counters.get(key))?.value ?? 0);
      },
    },
    idempotency: {
      async insertIfAbsent(r) {
        const k = idemKey(r.scope, r.key);
        const cur = idem.get(k);
        if (cur && Date.parse(cur.expiresAt) > clock.now().getTime()) return copy(cur);
        idem.set(k, copy(r));
        return null;
      },
      async takeOver(scope, key, expectedOwner, owner, lockedUntil) {
        const cur = idem.get(idemKey(scope, key));
        if (!cur || cur.status !== 0 || (cur.owner ?? null) !== expectedOwner) return false;
        Object.assign(cur, { owner, lockedUntil });
        return true;
      },
      async complete(scope, key, owner, status, body) {
        const cur = idem.get(idemKey(scope, key));
        if (!cur || cur.owner !== owner) return false;
        Object.assign(cur, { status, body: copy(body) });
        return true;
      },
      async delete(scope, key, owner) {
        const k = idemKey(scope, key);
        if (idem.get(k)?.owner === owner) idem.delete(k);
      },
    },
    intents,
    intentEvents: createMemoryIntentEvents(),
    intentLeases: createMemoryIntentLeases(),
    nonces: createMemoryNonces(),
    intentChanges: intents.changes,
    paymentLocks: createMemoryPaymentLocks(),
    paymentNonces: {
      async claim(key) {
        if (paymentNonces.has(key)) return false;
        paymentNonces.add(key);
        return true;
      },
      async isClaimed(key) {
        return paymentNonces.has(key);
      },
    },
    users: createMemoryUsers(),
    sessions: createMemorySessions(clock),
    auditLog: createMemoryAuditLog(clock),
    policies: createMemoryPolicies(),
    webhooks: createMemoryWebhooks(),
    rateHistory: createMemoryRateHistory(clock),
    positionLedger: createMemoryPositionLedger(),
    standingIntents: createMemoryStandingIntents(),
    standingDecisions: createMemoryStandingDecisions(clock),
    async ping() {},
    async close() {},
  };
}
