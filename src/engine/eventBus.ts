import { LRUCache } from 'lru-cache';
import type { Intent } from '../domain/intent';
import type { IntentBus, IntentSubscription, IntentTopic } from '../ports/intentBus';

/** A subscription's buffer: latest unread snapshot per intent, in first-unread order, at most `max` intents. */
function conflatingSubscription(max: number, onClose: () => void): IntentSubscription & { push(intent: Intent): void } {
  const unread = new Map<string, Intent>();
  let waiting: ((r: IteratorResult<Intent>) => void) | null = null;
  let closed = false;

  const sub = {
    push(intent: Intent): void {
      if (closed) return;
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: intent, done: false });
        return;
      }
      unread.set(intent.id, intent);
      if (unread.size > max) {
        const oldest = unread.keys().next();
        if (!oldest.done) unread.delete(oldest.value);
      }
    },
    next(): Promise<IteratorResult<Intent>> {
      const first = unread.entries().next();
      if (!first.done) {
        unread.delete(first.value[0]);
        return Promise.resolve({ value: first.value[1], done: false });
      }
      if (closed) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return(): Promise<IteratorResult<Intent>> {
      sub.close();
      return Promise.resolve({ value: undefined, done: true });
    },
    close(): void {
      if (closed) return;
      closed = true;
      unread.clear();
      onClose();
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: undefined, done: true });
      }
    },
    [Symbol.asyncIterator]() {
      return sub;
    },
  };
  return sub;
}

/** The subscriber when exactly one is listening across the four topic sets; undefined for none or several (no array built per publish). */
function loneSubscriber(a: Set<Subscriber>, b?: Set<Subscriber>, c?: Set<Subscriber>, d?: Set<Subscriber>): Subscriber | undefined {
  const count = a.size + (b?.size ?? 0) + (c?.size ?? 0) + (d?.size ?? 0);
  if (count !== 1) return undefined;
  const set = a.size === 1 ? a : b?.size === 1 ? b : c?.size === 1 ? c : d!;
  return set.values().next().value;
}

function deliverTo(s: Subscriber, intent: Intent): void {
  try {
    s.deliver(intent);
  } catch {
    // one faulty listener must not keep the snapshot from the others
  }
}

interface Subscriber {
  /** Subscription order: a snapshot reaches its subscribers in this order, whatever their topics. */
  seq: number;
  deliver(intent: Intent): void;
}

/**
 * Creates an empty bus. Subscribers are indexed by topic, so a publish costs
 * the subscribers of that intent, its wallet and 'all', not every subscriber
 * of the process (one watcher per live intent would make that quadratic).
 */
export function createIntentBus(): IntentBus {
  const all = new Set<Subscriber>();
  const byIntent = new Map<string, Set<Subscriber>>();
  const byWallet = new Map<string, Set<Subscriber>>();
  const byAccount = new Map<string, Set<Subscriber>>();
  let count = 0;
  let nextSeq = 0;

  /** Adds a subscriber under `topic`; returns its removal (idempotent). */
  function add(topic: IntentTopic, deliver: (intent: Intent) => void): () => void {
    const entry: Subscriber = { seq: nextSeq++, deliver };
    let index: Map<string, Set<Subscriber>> | null = null;
    let key = '';
    let bucket = all;
    if (topic !== 'all') {
      [index, key] = 'intentId' in topic ? [byIntent, topic.intentId] : 'walletId' in topic ? [byWallet, topic.walletId] : [byAccount, topic.accountId];
      bucket = index.get(key) ?? new Set();
      index.set(key, bucket);
    }
    bucket.add(entry);
    count++;
    return () => {
      if (!bucket.delete(entry)) return;
      count--;
      if (index !== null && bucket.size === 0 && index.get(key) === bucket) index.delete(key);
    };
  }

  return {
    publish(intent) {
      const forIntent = byIntent.get(intent.id);
      const forWallet = byWallet.get(intent.walletId);
      const forAccount = byAccount.get(intent.accountId);
      const only = loneSubscriber(all, forAccount, forWallet, forIntent);
      if (only !== undefined) {
        // one subscriber (the common case: a single 'all' listener, or one watcher): no list to build for every transition
        deliverTo(only, intent);
        return;
      }
      // copied first: a listener that (un)subscribes while being called does not change who gets this snapshot
      const targets: Subscriber[] = [...all, ...(forAccount ?? []), ...(forWallet ?? []), ...(forIntent ?? [])];
      const sources = (all.size > 0 ? 1 : 0) + (forAccount ? 1 : 0) + (forWallet ? 1 : 0) + (forIntent ? 1 : 0);
      if (sources > 1) targets.sort((a, b) => a.seq - b.seq);
      for (const s of targets) deliverTo(s, intent);
    },
    listen(topic, listener) {
      return add(topic, listener);
    },
    subscribe(topic, options = {}) {
      let remove = (): void => undefined;
      const sub = conflatingSubscription(Math.max(1, options.maxBuffered ?? 100), () => remove());
      remove = add(topic, (intent) => sub.push(intent));
      const { signal } = options;
      if (signal?.aborted) sub.close();
      else signal?.addEventListener('abort', () => sub.close(), { once: true });
      return sub;
    },
    size: () => count,
  };
}

/**
 * The newest version of each intent delivered to a bus fed from two sides
 * (this instance's engine and what other instances wrote): `admit` is true,
 * and remembers it, for a snapshot newer than any delivered, so each reaches
 * subscribers once and never after a newer one. Bounded: an intent not heard
 * of for `max` others may see one stale snapshot again.
 */
export function newestVersions(max = 10_000): { admit(intent: Intent): boolean } {
  const delivered = new LRUCache<string, number>({ max });
  return {
    admit(intent) {
      const seen = delivered.get(intent.id);
      if (seen !== undefined && seen >= intent.version) return false;
      delivered.set(intent.id, intent.version);
      return true;
    },
  };
}
