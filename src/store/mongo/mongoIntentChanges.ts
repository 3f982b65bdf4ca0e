import { MongoServerError, type ChangeStream, type Db, type ResumeToken } from 'mongodb';
import { createSystemClock, type Clock } from '../../domain/clock';
import type { Intent } from '../../domain/intent';
import type { IntentChangeFeed } from '../../ports/store';

type IntentDoc = Intent & { _id?: unknown };

/** What the pipeline keeps of an event: its resume token, its kind, and the document written. */
interface IntentEvent {
  _id: ResumeToken;
  operationType: 'insert' | 'replace' | 'invalidate';
  fullDocument?: IntentDoc;
}

/**
 * The intents repository writes whole documents (insertOne, replaceOne), so
 * those events carry `fullDocument`: no lookup. `invalidate` (the collection
 * dropped or renamed) is kept so the feed can start again after it, which
 * `resumeAfter` cannot do.
 */
const PIPELINE = [{ $match: { operationType: { $in: ['insert', 'replace', 'invalidate'] } } }, { $project: { operationType: 1, fullDocument: 1 } }];

/** The position cannot be resumed: the oplog no longer holds it (ChangeStreamHistoryLost), or the server refuses it for good (ChangeStreamFatalError). */
const LOST_POSITION = new Set([286, 280]);

type Position = { resumeAfter: ResumeToken } | { startAfter: ResumeToken } | Record<string, never>;

export interface MongoIntentChangesOptions {
  /** First wait before a failed stream is reopened; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  /** How long the server holds a getMore that has nothing to return. */
  maxAwaitTimeMS?: number;
  /** The service's clock: the waits before a stream is reopened run on it (default: the system clock). */
  clock?: Clock;
}

/**
 * MongoDB's IntentChangeFeed: a change stream on `intents`. The driver resumes
 * by itself after resumable errors (network, primary stepping down); any other
 * failure closes its stream, so this one is reopened, after a back-off, from
 * the last position read (the post-batch token), and no write is lost. A
 * position the oplog no longer holds is reported and the feed reopens from
 * now. Needs a replica set (or sharded cluster): `capabilities.changeStreams`.
 */
export function createMongoIntentChanges(db: Db, o: MongoIntentChangesOptions = {}): IntentChangeFeed {
  const intents = db.collection<IntentDoc>('intents');
  const retryMs = o.retryMs ?? 200;
  const maxRetryMs = o.maxRetryMs ?? 5_000;
  const maxAwaitTimeMS = o.maxAwaitTimeMS ?? 1_000;
  const clock = o.clock ?? createSystemClock();

  return {
    async watch(onChange, options = {}) {
      const report = (err: unknown): void => {
        try {
          options.onError?.(err);
        } catch {
          // a throwing error handler must not stop the feed
        }
      };
      let position: Position = options.resumeAfter === undefined ? {} : { resumeAfter: options.resumeAfter };
      let stopped = false;
      let opened = false;
      let wake = (): void => undefined;
      let markOpen = (): void => undefined;
      let failOpen = (_err: unknown): void => undefined;
      const open = new Promise<void>((resolve, reject) => {
        markOpen = () => {
          opened = true;
          resolve();
        };
        failOpen = reject;
      });

      let openedAt: ResumeToken = null;
      const openStream = (): ChangeStream<IntentDoc, IntentEvent> => {
        const s = intents.watch<IntentDoc, IntentEvent>(PIPELINE, { ...position, maxAwaitTimeMS });
        openedAt = s.resumeToken;
        return s;
      };
      /**
       * Moves the position to the driver's token: the last event returned, or past all the server
       * scanned (post-batch token), never past an event not yet returned; so it is safe after a failed read too.
       * A stream's first token is what it was opened with: a `startAfter` stays one.
       */
      const advance = (): void => {
        const token: ResumeToken = stream.resumeToken;
        if (token != null && token !== openedAt) position = { resumeAfter: token };
      };
      let stream = openStream();
      // The driver opens its cursor lazily, on the first read: its first resume token comes with the
      // server's answer, from which every later write is in the stream (an answer with events is a first read that returns).
      stream.once('resumeTokenChanged', () => markOpen());

      /** One read (waits up to maxAwaitTimeMS on the server): delivers what came, then moves the position past it. */
      async function step(): Promise<void> {
        const s = stream;
        const event = await s.tryNext();
        if (stopped) return;
        if (event?.operationType === 'invalidate') {
          position = { startAfter: event._id };
          report(new Error('intents change stream invalidated (collection dropped or renamed); restarted after it'));
          await s.close().catch(() => undefined);
          if (!stopped) stream = openStream();
          return;
        }
        if (event?.fullDocument) {
          const { _id, ...intent } = event.fullDocument;
          void _id;
          try {
            onChange({ intent, resumeToken: event._id });
          } catch (err) {
            report(err);
          }
        }
        advance();
      }

      const sleep = (ms: number): Promise<void> =>
        new Promise((resolve) => {
          const timer = clock.setTimeout(resolve, ms, { background: true });
          wake = () => {
            clock.clearTimeout(timer);
            resolve();
          };
        });

      async function pump(): Promise<void> {
        let delay = retryMs;
        while (!stopped) {
          try {
            await step();
            if (!opened) markOpen();
            delay = retryMs;
          } catch (err) {
            if (stopped) return;
            advance();
            await stream.close().catch(() => undefined);
            const lost = err instanceof MongoServerError && typeof err.code === 'number' && LOST_POSITION.has(err.code) && Object.keys(position).length > 0;
            if (!opened && !lost) {
              // The feed never opened: `watch` rejects with the cause (nothing to resume from).
              stopped = true;
              failOpen(err);
              return;
            }
            report(err);
            if (lost) position = {};
            await sleep(delay);
            delay = Math.min(delay * 2, maxRetryMs);
            if (!stopped) stream = openStream();
          }
        }
      }
      void pump();
      await open;

      let stopping: Promise<void> | undefined;
      return () => {
        stopping ??= (async () => {
          stopped = true;
          wake();
          // Deliveries stop at once (`stopped`); a read still waiting on the server ends with its cursor.
          await stream.close().catch(() => undefined);
        })();
        return stopping;
      };
    },
  };
}
