import { MongoServerError, type Db } from 'mongodb';
import { createSystemClock, type Clock } from '../../domain/clock';
import type { SessionRecord, User } from '../../domain/types';
import { DuplicateError, type SessionRepo, type UserRepo } from '../../ports/store';

const noId = { projection: { _id: 0 } } as const;
const isDuplicateKey = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

/** Dashboard users (collection `users`, unique on issuer + subject). */
export function createMongoUsers(db: Db): UserRepo {
  const users = db.collection<User>('users');
  return {
    async insert(u) {
      try {
        await users.insertOne({ ...u });
      } catch (e) {
        // The id is random: a duplicate can only be the identity, signed in twice at once.
        if (isDuplicateKey(e)) throw new DuplicateError('users.issuer_subject');
        throw e;
      }
    },
    async findByIdentity(issuer, subject) {
      const doc = await users.findOne({ issuer, subject }, noId);
      if (!doc) return null;
      // Some compatible servers ignore the projection: drop _id here too.
      const { _id, ...record } = doc as User & { _id?: unknown };
      void _id;
      return record;
    },
    async recordSignIn(id, email, at) {
      await users.updateOne({ id }, { $set: { email, lastSignInAt: at } });
    },
  };
}

/** Dashboard sessions (collection `sessions`, `_id` the token digest, removed by TTL on `expiresAtDate`). */
export function createMongoSessions(db: Db, clock: Pick<Clock, 'now'>): SessionRepo {
  const sessions = db.collection<SessionRecord & { _id: string; expiresAtDate: Date }>('sessions');
  return {
    async insert(s) {
      try {
        await sessions.insertOne({ _id: s.id, ...s, expiresAtDate: new Date(s.expiresAt) });
      } catch (e) {
        if (isDuplicateKey(e)) throw new DuplicateError('sessions.id');
        throw e;
      }
    },
    async get(id) {
      // Expired sessions are gone logically before the TTL monitor removes them.
      const doc = await sessions.findOne({ _id: id, expiresAtDate: { $gt: clock.now() } });
      if (!doc) return null;
      const { _id, expiresAtDate, ...record } = doc;
      void _id;
      void expiresAtDate;
      return record;
    },
    async delete(id) {
      await sessions.deleteOne({ _id: id });
    },
  };
}

/** Thrown when a database already serves another deployment environment. */
export class EnvironmentMismatchError extends Error {
  override readonly name = 'EnvironmentMismatchError';
}

/**
 * docs/decisions.md, "staging": each environment needs its own database. The first
 * start records its environment in `serviceMeta`; a start for another
 * environment on the same database is refused.
 */
export async function claimEnvironment(db: Db, environment: string, clock: Pick<Clock, 'now'> = createSystemClock()): Promise<void> {
  const meta = db.collection<{ _id: string; environment: string; claimedAt: Date }>('serviceMeta');
  try {
    await meta.insertOne({ _id: 'environment', environment, claimedAt: clock.now() });
    return;
  } catch (e) {
    if (!isDuplicateKey(e)) throw e;
  }
  const doc = await meta.findOne({ _id: 'environment' });
  if (doc && doc.environment !== environment) {
    throw new EnvironmentMismatchError(
      `MONGODB_URI: database "${db.databaseName}" belongs to the ${doc.environment} environment; SERVICE_ENV=${environment} needs its own database`,
    );
  }
}
