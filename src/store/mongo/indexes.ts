import type { Db } from 'mongodb';

/** Indexes of DESIGN §7; createIndex is idempotent, so this runs at every start. */
export async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all([
    db.collection('accounts').createIndex({ id: 1 }, { unique: true }),
    db.collection('apiKeys').createIndex({ id: 1 }, { unique: true }),
    db.collection('apiKeys').createIndex({ hash: 1 }, { unique: true }),
    db.collection('apiKeys').createIndex({ accountId: 1 }),
    db.collection('wallets').createIndex({ id: 1 }, { unique: true }),
    db.collection('wallets').createIndex({ accountId: 1, userId: 1 }, { unique: true }),
    db.collection('walletKeys').createIndex({ walletId: 1 }, { unique: true }),
    db.collection('usage').createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
    db.collection('idempotency').createIndex({ scope: 1, key: 1 }, { unique: true }),
    db.collection('idempotency').createIndex({ expiresAtDate: 1 }, { expireAfterSeconds: 0 }),
    db.collection('intents').createIndex({ id: 1 }, { unique: true }),
    db.collection('intents').createIndex({ walletId: 1, createdAt: 1 }),
    db.collection('intents').createIndex({ status: 1 }),
  ]);
}
