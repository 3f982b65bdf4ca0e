import type { Clock, TimerId } from '../domain/clock';
import type { Intent } from '../domain/intent';
import type { IntentEventLog } from '../ports/store';
import { newestVersions } from './eventBus';
import type { IntentBus } from '../ports/intentBus';

/** What the shared bus needs besides the log. */
export interface SharedBusOptions {
  /** This instance's id: its own entries are already on its local bus. */
  origin: string;
  /** Times the polls and the wait for a gap. */
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** Polling interval of the follower. */
  pollMs?: number;
  /** How long a gap in the sequence (a number taken, its entry not written yet) is waited for before it is skipped. */
  gapWaitMs?: number;
  /** Entries read per poll at most. */
  batch?: number;
  onError?: (err: unknown, what: string) => void;
}

/** The local bus, fed across instances: what this engine publishes is appended to the log; what others append is published here. */
export interface SharedBus extends IntentBus {
  /** Stops following the log. */
  stop(): void;
}

/**
 * Carries intent progress between instances over the store's append-only
 * event log, so a subscription on any instance sees every persisted change of
 * an intent whichever instance executes it. Publishing appends after the local
 * publish (a failed append is reported and costs other instances that one
 * snapshot: the next one, or the store read every subscription starts with,
 * brings them up to date). The follower reads the log by sequence from where
 * it was when started: entries in sequence order, a gap waited for
 * `gapWaitMs`, and per intent nothing older than what was delivered
 * (snapshots carry their version), so no update is reordered. Works on every
 * MongoDB-compatible server (change streams not needed).
 */
export async function createSharedBus(local: IntentBus, log: IntentEventLog, o: SharedBusOptions): Promise<SharedBus> {
  const pollMs = o.pollMs ?? 200;
  const gapWaitMs = o.gapWaitMs ?? 2_000;
  const batch = o.batch ?? 500;
  const onError = o.onError ?? (() => undefined);
  const versions = newestVersions();
  let last = await log.head();
  let gapSince: number | undefined;
  let stopped = false;
  let timer: TimerId | undefined;
  /** Appends of one intent run one after the other, so its snapshots enter the log in version order. */
  const appending = new Map<string, Promise<unknown>>();

  const deliver = (intent: Intent): void => {
    if (versions.admit(intent)) local.publish(intent);
  };

  async function poll(): Promise<void> {
    const entries = await log.readAfter(last, batch);
    for (const e of entries) {
      if (e.seq !== last + 1) {
        const now = o.clock.now().getTime();
        gapSince ??= now;
        if (now - gapSince < gapWaitMs) return; // the missing entry may still be written
        onError(new Error(`intent event log: entries ${last + 1}..${e.seq - 1} never written; skipped`), 'gap');
      }
      gapSince = undefined;
      last = e.seq;
      if (e.origin !== o.origin) deliver(e.intent);
    }
  }

  const loop = (): void => {
    if (stopped) return;
    poll()
      .catch((err: unknown) => onError(err, 'read'))
      .finally(() => {
        if (!stopped) timer = o.clock.setTimeout(loop, pollMs, { background: true });
      });
  };
  timer = o.clock.setTimeout(loop, pollMs, { background: true });

  return {
    publish(intent) {
      // This instance's own snapshot is published here whatever came before; remembered, it keeps older ones from others out.
      versions.admit(intent);
      local.publish(intent);
      const previous = appending.get(intent.id) ?? Promise.resolve();
      const next = previous
        .then(() => log.append(o.origin, intent))
        .catch((err: unknown) => onError(err, 'append'))
        .finally(() => {
          if (appending.get(intent.id) === next) appending.delete(intent.id);
        });
      appending.set(intent.id, next);
    },
    listen: (topic, listener) => local.listen(topic, listener),
    subscribe: (topic, options) => local.subscribe(topic, options),
    size: () => local.size(),
    stop() {
      stopped = true;
      if (timer !== undefined) o.clock.clearTimeout(timer);
    },
  };
}
