import type { Intent } from '../domain/intent';

/** Which snapshots a subscriber wants: one intent's, one wallet's, or all. */
export type IntentTopic = { intentId: string } | { walletId: string } | 'all';

/** A pull subscription (GraphQL subscriptions iterate it); `close()` ends it and resolves a waiting `next()` as done. */
export interface IntentSubscription extends AsyncIterableIterator<Intent> {
  close(): void;
}

/** Options of `IntentBus.subscribe`. */
export interface SubscribeOptions {
  /** Most intents with an unread snapshot kept for a slow reader; the oldest is dropped beyond it. Default 100. */
  maxBuffered?: number;
  /** Closes the subscription when aborted. */
  signal?: AbortSignal;
}

/**
 * In-process publish/subscribe of intent snapshots (DESIGN §6: published only
 * after they are persisted). Bounded: a reader that falls behind keeps only
 * the latest unread snapshot per intent, never a growing queue.
 */
export interface IntentBus {
  publish(intent: Intent): void;
  /** Calls `listener` synchronously for each matching snapshot; returns the unsubscribe function. A throwing listener is ignored. */
  listen(topic: IntentTopic, listener: (intent: Intent) => void): () => void;
  subscribe(topic: IntentTopic, options?: SubscribeOptions): IntentSubscription;
  /** Live listeners and subscriptions. */
  size(): number;
}

function matches(topic: IntentTopic, intent: Intent): boolean {
  if (topic === 'all') return true;
  return 'intentId' in topic ? topic.intentId === intent.id : topic.walletId === intent.walletId;
}

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

/** Creates an empty bus. */
export function createIntentBus(): IntentBus {
  const subscribers = new Set<{ topic: IntentTopic; deliver(intent: Intent): void }>();

  return {
    publish(intent) {
      for (const s of [...subscribers]) {
        if (!matches(s.topic, intent)) continue;
        try {
          s.deliver(intent);
        } catch {
          // one faulty listener must not keep the snapshot from the others
        }
      }
    },
    listen(topic, listener) {
      const entry = { topic, deliver: listener };
      subscribers.add(entry);
      return () => {
        subscribers.delete(entry);
      };
    },
    subscribe(topic, options = {}) {
      const entry = { topic, deliver: (intent: Intent) => sub.push(intent) };
      const sub = conflatingSubscription(Math.max(1, options.maxBuffered ?? 100), () => subscribers.delete(entry));
      subscribers.add(entry);
      const { signal } = options;
      if (signal?.aborted) sub.close();
      else signal?.addEventListener('abort', () => sub.close(), { once: true });
      return sub;
    },
    size: () => subscribers.size,
  };
}
