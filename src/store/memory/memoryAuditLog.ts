import { createSystemClock, type Clock } from '../../domain/clock';
import { auditRetentionCutoff, type AuditEvent } from '../../domain/audit';
import type { AuditCursor, AuditLog } from '../../ports/store';

/** Newest first: `at` descending, then id descending (a total order, so cursors are stable). */
function newestFirst(a: AuditCursor, b: AuditCursor): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Every account's expired events are dropped at most this often (each account's own on each of its appends and lists). */
const SWEEP_EVERY_MS = 60_000;

/**
 * The audit log in memory, per account. Same retention as the TTL index on
 * MongoDB: events older than AUDIT_RETENTION_DAYS are dropped on append and
 * on list, so nothing expired is ever listed and the map stays bounded.
 */
export function createMemoryAuditLog(clock: Pick<Clock, 'now'> = createSystemClock()): AuditLog {
  const byAccount = new Map<string, AuditEvent[]>();
  /** The earliest `at` (ms) of each account's events: nothing of an account can have expired before it (an append checks it, not every event). */
  const oldest = new Map<string, number>();
  let lastSweep = 0;
  const isLive = (cutoff: number) => (e: AuditEvent) => Date.parse(e.at) > cutoff;

  /** Drops the account's expired events (only when its oldest may have expired); returns the live ones. */
  function pruneAccount(accountId: string, cutoff: number): AuditEvent[] {
    const events = byAccount.get(accountId) ?? [];
    if ((oldest.get(accountId) ?? Number.POSITIVE_INFINITY) > cutoff) return events;
    const kept = events.filter(isLive(cutoff));
    if (kept.length === 0) {
      byAccount.delete(accountId);
      oldest.delete(accountId);
    } else {
      byAccount.set(accountId, kept);
      oldest.set(
        accountId,
        kept.reduce((min, e) => Math.min(min, Date.parse(e.at)), Number.POSITIVE_INFINITY),
      );
    }
    return kept;
  }

  /** The account's live events (expired ones dropped); every account's now and then. */
  function prune(accountId: string): AuditEvent[] {
    const now = clock.now();
    const cutoff = auditRetentionCutoff(now).getTime();
    if (now.getTime() - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = now.getTime();
      for (const id of [...byAccount.keys()]) pruneAccount(id, cutoff);
    }
    return pruneAccount(accountId, cutoff);
  }

  return {
    async append(event) {
      const events = prune(event.accountId);
      if (!isLive(auditRetentionCutoff(clock.now()).getTime())(event)) return; // already past retention: gone at once
      events.push(structuredClone(event));
      byAccount.set(event.accountId, events);
      oldest.set(event.accountId, Math.min(oldest.get(event.accountId) ?? Number.POSITIVE_INFINITY, Date.parse(event.at)));
    },
    async list(accountId, { type, walletId, intentId, since, limit, after }) {
      return prune(accountId)
        .filter(
          (e) =>
            (type === undefined || e.type === type) &&
            (walletId === undefined || e.subject.walletId === walletId) &&
            (intentId === undefined || e.subject.intentId === intentId) &&
            (since === undefined || e.at >= since) &&
            (after === undefined || newestFirst(after, e) < 0),
        )
        .sort(newestFirst)
        .slice(0, Math.max(0, limit))
        .map((e) => structuredClone(e));
    },
  };
}
