import type { Intent } from '../domain/intent';
import type { IntentChangeFeed } from '../ports/store';
import { newestVersions } from './eventBus';
import type { IntentBus } from '../ports/intentBus';
import type { SharedBus } from './sharedBus';

export interface ChangeFeedBusOptions {
  onError?: (err: unknown, what: string) => void;
  /**
   * Intents this instance's engine runs (it holds their leases): their
   * snapshots are delivered by the engine's own publish, which comes after a
   * final intent's audit event and final-state hooks; the feed's echo, which
   * can arrive first, is dropped. Absent: every echo counts.
   */
  publishedHere?: (intentId: string) => boolean;
}

/** A SharedBus whose `stop()` can be awaited (callers that do not await it lose nothing). */
export interface ChangeFeedBus extends SharedBus {
  stop(): Promise<void>;
}

/**
 * Carries intent progress between instances over the store's own feed of
 * intent writes (a MongoDB change stream): every snapshot any instance
 * persists reaches this instance's subscribers, with nothing appended
 * anywhere. A local publish is delivered at once; the feed's echo of it, and
 * any snapshot older than one delivered (snapshots carry their version), is
 * dropped, so each snapshot reaches local subscribers once, in version order,
 * whichever instance wrote it. Resolves once the feed is open.
 */
export async function createChangeFeedBus(local: IntentBus, feed: IntentChangeFeed, o: ChangeFeedBusOptions = {}): Promise<ChangeFeedBus> {
  const onError = o.onError ?? (() => undefined);
  const versions = newestVersions();
  const deliver = (intent: Intent): void => {
    if (versions.admit(intent)) local.publish(intent);
  };

  const stopFeed = await feed.watch(
    (change) => {
      if (!o.publishedHere?.(change.intent.id)) deliver(change.intent);
    },
    { onError: (err) => onError(err, 'change feed') },
  );
  let stopping: Promise<void> | undefined;

  return {
    publish: deliver,
    listen: (topic, listener) => local.listen(topic, listener),
    subscribe: (topic, options) => local.subscribe(topic, options),
    size: () => local.size(),
    stop() {
      stopping ??= stopFeed().catch((err: unknown) => {
        onError(err, 'stop');
      });
      return stopping;
    },
  };
}
