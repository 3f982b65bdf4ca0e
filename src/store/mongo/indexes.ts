import type { Db } from 'mongodb';
import type { StoreCapabilities } from './capabilities';
import { AUDIT_RETENTION_DAYS } from '../../domain/audit';
import { RATE_HISTORY_RETENTION_DAYS } from '../../domain/rateHistory';
import { DECISION_RETENTION_DAYS } from '../../domain/standingIntent';

/**
 * Indexes of docs/architecture.md; createIndex is idempotent, so this runs at every start.
 * Without TTL support the expiry indexes are plain ones: reads still ignore
 * expired records (they compare the dates), the server only keeps them.
 */
export async function ensureIndexes(db: Db, caps: Pick<StoreCapabilities, 'ttlIndexes'> = { ttlIndexes: true }): Promise<void> {
  const ttl = caps.ttlIndexes ? { expireAfterSeconds: 0 } : {};
  await Promise.all([
    db.collection('accounts').createIndex({ id: 1 }, { unique: true }),
    db.collection('apiKeys').createIndex({ id: 1 }, { unique: true }),
    db.collection('apiKeys').createIndex({ hash: 1 }, { unique: true }),
    db.collection('apiKeys').createIndex({ accountId: 1 }),
    db.collection('wallets').createIndex({ id: 1 }, { unique: true }),
    db.collection('wallets').createIndex({ accountId: 1, userId: 1 }, { unique: true }),
    db.collection('walletKeys').createIndex({ walletId: 1 }, { unique: true }),
    db.collection('usage').createIndex({ expiresAt: 1 }, ttl),
    db.collection('idempotency').createIndex({ scope: 1, key: 1 }, { unique: true }),
    db.collection('idempotency').createIndex({ expiresAtDate: 1 }, ttl),
    db.collection('intents').createIndex({ id: 1 }, { unique: true }),
    db.collection('intents').createIndex({ walletId: 1, createdAt: 1 }),
    db.collection('intents').createIndex({ status: 1 }),
    db.collection('intents').createIndex({ accountId: 1, createdAt: -1 }),
    db.collection('wallets').createIndex({ accountId: 1, createdAt: -1 }),
    db.collection('users').createIndex({ id: 1 }, { unique: true }),
    db.collection('users').createIndex({ issuer: 1, subject: 1 }, { unique: true }),
    db.collection('sessions').createIndex({ expiresAtDate: 1 }, ttl),
    db.collection('policies').createIndex({ id: 1 }, { unique: true }),
    db.collection('policies').createIndex({ accountId: 1, createdAt: -1 }),
    db.collection('webhookEndpoints').createIndex({ id: 1 }, { unique: true }),
    db.collection('webhookEndpoints').createIndex({ accountId: 1, createdAt: -1 }),
    db.collection('webhookDeliveries').createIndex({ id: 1 }, { unique: true }),
    db.collection('webhookDeliveries').createIndex({ status: 1, nextAttemptAt: 1 }),
    db.collection('webhookDeliveries').createIndex({ endpointId: 1, createdAt: -1, id: -1 }),
    db.collection('webhookDeliveries').createIndex({ expireAt: 1 }, ttl),
    db.collection('wallets').createIndex({ policyId: 1 }),
    db.collection('intentEvents').createIndex({ seq: 1 }, { unique: true }),
    db.collection('intentEvents').createIndex({ at: 1 }, caps.ttlIndexes ? { expireAfterSeconds: 3600 } : {}),
    db.collection('intentLeases').createIndex({ until: 1 }),
    db.collection('intentLeases').createIndex({ owner: 1 }),
    db.collection('paymentLocks').createIndex({ expireAt: 1 }, ttl),
    db.collection('auditLog').createIndex({ accountId: 1, at: -1, id: -1 }),
    db.collection('auditLog').createIndex({ atDate: 1 }, caps.ttlIndexes ? { expireAfterSeconds: AUDIT_RETENTION_DAYS * 86_400 } : {}),
    rateHistoryIndexes(db, caps),
    db.collection('positionLedger').createIndex({ intentId: 1, stepIndex: 1 }, { unique: true }),
    db.collection('positionLedger').createIndex({ walletId: 1, at: 1 }),
    db.collection('standingIntents').createIndex({ id: 1 }, { unique: true }),
    db.collection('standingIntents').createIndex({ walletId: 1, asset: 1 }, { unique: true }),
    db.collection('standingIntents').createIndex({ accountId: 1, createdAt: -1 }),
    db.collection('standingIntents').createIndex({ status: 1 }),
    db.collection('standingDecisions').createIndex({ id: 1 }, { unique: true }),
    // one decision per standing intent and sample minute, whichever instance inserts first
    db.collection('standingDecisions').createIndex({ standingIntentId: 1, sampleAt: 1 }, { unique: true }),
    db.collection('standingDecisions').createIndex({ decidedAtDate: 1 }, caps.ttlIndexes ? { expireAfterSeconds: DECISION_RETENTION_DAYS * 86_400 } : {}),
  ]);
}

/** The unique key rate samples had before they named their token: two tokens of one market and minute would collide on it. */
const SAMPLE_KEY_WITHOUT_TOKEN = 'chain_1_protocol_1_asset_1_at_1';

/** A server without the command (some MongoDB-compatible servers lack dropIndexes or collMod). */
const lacksCommand = (e: unknown) => (e as { code?: number }).code === 59 || /no such command/i.test((e as Error).message ?? '');

/**
 * The APY samples (unique per market, token and minute) and the costs of
 * each sample minute, both kept RATE_HISTORY_RETENTION_DAYS. A database made
 * by an earlier version loses the unique key without the token, and its TTL
 * index takes the retention of today. On a server that can neither drop nor
 * change an index, the earlier indexes stay: samples then expire at the
 * earlier retention, and a second token of a market and minute is not kept.
 */
async function rateHistoryIndexes(db: Db, caps: Pick<StoreCapabilities, 'ttlIndexes'>): Promise<void> {
  const retention = caps.ttlIndexes ? { expireAfterSeconds: RATE_HISTORY_RETENTION_DAYS * 86_400 } : {};
  const samples = db.collection('rateHistory');
  const existing = await samples
    .listIndexes()
    .toArray()
    .catch(() => []);
  if (existing.some((i) => i.name === SAMPLE_KEY_WITHOUT_TOKEN)) {
    await samples.dropIndex(SAMPLE_KEY_WITHOUT_TOKEN).catch((e: unknown) => {
      // 27: dropped meanwhile by another instance starting
      if ((e as { code?: number }).code !== 27 && !lacksCommand(e)) throw e;
    });
  }
  await Promise.all([
    samples.createIndex({ chain: 1, protocol: 1, asset: 1, token: 1, at: 1 }, { unique: true }),
    ttlIndex(db, 'rateHistory', retention),
    db.collection('rateCosts').createIndex({ at: 1 }, { unique: true }),
    ttlIndex(db, 'rateCosts', retention),
  ]);
}

/** The TTL index on `atDate`; one standing with another expiry is changed in place (collMod), or rebuilt where the server cannot. */
async function ttlIndex(db: Db, collection: string, options: { expireAfterSeconds?: number }): Promise<void> {
  try {
    await db.collection(collection).createIndex({ atDate: 1 }, options);
  } catch (e) {
    const conflict = (e as { code?: number }).code === 85; // IndexOptionsConflict: same key, other expiry
    if (!conflict || options.expireAfterSeconds === undefined) throw e;
    try {
      await db.command({ collMod: collection, index: { keyPattern: { atDate: 1 }, expireAfterSeconds: options.expireAfterSeconds } });
    } catch (modError) {
      if (!lacksCommand(modError)) throw modError;
      await db
        .collection(collection)
        .dropIndex('atDate_1')
        .then(
          () => db.collection(collection).createIndex({ atDate: 1 }, options),
          (dropError: unknown) => {
            if (!lacksCommand(dropError)) throw dropError;
          },
        );
    }
  }
}
