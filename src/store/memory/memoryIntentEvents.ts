import type { IntentEventEntry, IntentEventLog } from '../port';

/** Entries kept in memory: enough for any follower of this process, bounded. */
const KEEP = 10_000;

/** The intent event log in memory: one process, so only its own follower reads it (and skips its own entries). */
export function createMemoryIntentEvents(): IntentEventLog {
  const entries: IntentEventEntry[] = [];
  let seq = 0;
  return {
    async append(origin, intent) {
      seq += 1;
      entries.push({ seq, origin, intent: structuredClone(intent) });
      if (entries.length > KEEP) entries.splice(0, entries.length - KEEP);
      return seq;
    },
    async readAfter(after, limit) {
      return entries.filter((e) => e.seq > after).slice(0, limit).map((e) => structuredClone(e));
    },
    async head() {
      return seq;
    },
  };
}
