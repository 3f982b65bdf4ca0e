import type { Intent } from '../../domain/intent';
import type { IntentChange, IntentChangeFeed } from '../../ports/store';

interface Watcher {
  onChange(change: IntentChange): void;
  onError?: (err: unknown) => void;
  /** Changes with a token at or below this are not delivered (those before the watch opened, or `resumeAfter`). */
  after: number;
}

/**
 * The memory intents' change feed: the repository publishes each stored
 * record, synchronously after the write, to the watchers of this process.
 * Tokens are numbers increasing per repository. No history is kept, so
 * `resumeAfter` can only skip: a watch delivers changes made after it opened
 * whose token is above `resumeAfter` (a numeric token of this feed; others are
 * ignored), which is all one process needs. A watcher that throws is told
 * through its `onError` and never fails the write.
 */
export function createMemoryIntentChanges(): { feed: IntentChangeFeed; publish(intent: Intent): void } {
  const watchers = new Set<Watcher>();
  let token = 0;
  return {
    feed: {
      async watch(onChange, options = {}) {
        const { resumeAfter, onError } = options;
        const watcher: Watcher = { onChange, onError, after: typeof resumeAfter === 'number' ? Math.max(resumeAfter, token) : token };
        watchers.add(watcher);
        return async () => {
          watchers.delete(watcher);
        };
      },
    },
    publish(intent) {
      // Free with no watcher: no token, no record built.
      if (watchers.size === 0) return;
      token += 1;
      const change: IntentChange = { intent, resumeToken: token };
      for (const watcher of watchers) {
        if (token <= watcher.after) continue;
        try {
          watcher.onChange(change);
        } catch (err) {
          try {
            watcher.onError?.(err);
          } catch {
            // A throwing error handler is as harmless to the write as a throwing listener.
          }
        }
      }
    },
  };
}
