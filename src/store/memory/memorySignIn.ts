import type { SessionRecord, User } from '../../domain/types';
import { DuplicateError, type SessionRepo, type UserRepo } from '../../ports/store';

const copy = <T>(v: T): T => structuredClone(v);

/** Dashboard users, one per OpenID Connect identity (issuer + subject). */
export function createMemoryUsers(): UserRepo {
  const users = new Map<string, User>();
  const byIdentity = new Map<string, string>();
  const identity = (issuer: string, subject: string) => `${issuer}\u0000${subject}`;
  return {
    async insert(u) {
      if (users.has(u.id)) throw new DuplicateError('users.id');
      const k = identity(u.issuer, u.subject);
      if (byIdentity.has(k)) throw new DuplicateError('users.issuer_subject');
      users.set(u.id, copy(u));
      byIdentity.set(k, u.id);
    },
    async findByIdentity(issuer, subject) {
      const id = byIdentity.get(identity(issuer, subject));
      const u = id ? users.get(id) : undefined;
      return u ? copy(u) : null;
    },
    async recordSignIn(id, email, at) {
      const u = users.get(id);
      if (u) Object.assign(u, { email, lastSignInAt: at });
    },
  };
}

/** Dashboard sessions by token digest; expired ones read as absent and are swept as the map grows. */
export function createMemorySessions(clock: { now(): Date }): SessionRepo {
  const sessions = new Map<string, SessionRecord>();
  const expired = (s: SessionRecord) => Date.parse(s.expiresAt) <= clock.now().getTime();
  return {
    async insert(s) {
      if (sessions.has(s.id)) throw new DuplicateError('sessions.id');
      if (sessions.size > 10_000) for (const [k, v] of sessions) if (expired(v)) sessions.delete(k);
      sessions.set(s.id, copy(s));
    },
    async get(id) {
      const s = sessions.get(id);
      return s && !expired(s) ? copy(s) : null;
    },
    async delete(id) {
      sessions.delete(id);
    },
  };
}
