import type { Intent } from '../domain/intent';

/** Which snapshots a subscriber wants: one intent's, one wallet's, one account's (the dashboard), or all. */
export type IntentTopic = { intentId: string } | { walletId: string } | { accountId: string } | 'all';

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
 * In-process publish/subscribe of intent snapshots (docs/architecture.md: published only
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
