import type { IntentEventEntry, IntentEventLog } from '../../ports/store';
import { deepFreeze } from './frozen';

/** Entries kept in memory: enough for any follower of this process, bounded. */
const KEEP = 10_000;

/**
 * The intent event log in memory: one process, so only its own follower reads
 * it (and skips its own entries). Entries are deep-frozen snapshots, handed
 * out without a copy; the appended intent is frozen in place (it is the
 * engine's published snapshot, frozen already when the intents are in memory).
 */
export function createMemoryIntentEvents(): IntentEventLog {
  const entries: IntentEventEntry[] = [];
  let seq = 0;
  return {
    async append(origin, intent) {
      seq += 1;
      entries.push(deepFreeze({ seq, origin, intent }));
      if (entries.length > KEEP) entries.splice(0, entries.length - KEEP);
      return seq;
    },
    async readAfter(after, limit) {
      const out: IntentEventEntry[] = [];
      // entries are in sequence order: skip to the first one after `after`
      let lo = 0;
      let hi = entries.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (entries[mid]!.seq > after) hi = mid;
        else lo = mid + 1;
      }
      for (let n = lo; n < entries.length && out.length < limit; n++) out.push(entries[n]!);
      return out;
    },
    async head() {
      return seq;
    },
  };
}
