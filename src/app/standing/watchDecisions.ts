import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { ownStanding } from './manageStanding';
import { toDecisionView, type DecisionView } from './standingView';

/** How often a watcher reads the store for decisions other instances took. */
export const DECISION_POLL_MS = 5_000;
/** Decisions kept for a reader that lags; beyond it the oldest are dropped. */
export const DECISION_WATCH_BUFFER = 64;
/** Decisions read per poll (one a minute per standing intent: a poll sees one or two). */
const POLL_PAGE = 20;

/** What tells two versions of a decision apart: a move settles after it is recorded (its intent, or a refusal). */
const versionOf = (d: Pick<DecisionView, 'outcome' | 'reason' | 'rule' | 'intentId'>) => `${d.outcome}|${d.reason ?? ''}|${d.rule ?? ''}|${d.intentId ?? ''}`;

/**
 * A standing intent's decisions as a stream, from now on: each decision once
 * it is recorded (and again if it settles differently: a move's intent, or a
 * refusal), never one taken before the stream started.
 *
 * Two sources, so it works with several instances: this instance's decision
 * bus (at once), and the store, read every `pollMs` for decisions any
 * instance recorded (the decisions collection is the cross-instance feed,
 * at most one decision a minute per standing intent, so a poll is one
 * indexed read of a page). Memory per watcher is bounded by
 * DECISION_WATCH_BUFFER decisions; `return()` stops both sources at once.
 */
export async function watchDecisions(
  deps: Pick<AppDeps, 'store'> & Partial<Pick<AppDeps, 'decisionBus'>>,
  principal: Principal,
  standingIntentId: string,
  options: { pollMs?: number } = {},
): Promise<AsyncIterableIterator<DecisionView>> {
  const s = await ownStanding(deps, principal, standingIntentId);
  const seen = new Map<string, string>();
  const queue: DecisionView[] = [];
  let waiting: ((r: IteratorResult<DecisionView>) => void) | null = null;
  let done = false;

  const offer = (d: DecisionView): void => {
    const version = versionOf(d);
    if (done || seen.get(d.id) === version) return;
    seen.set(d.id, version);
    // the ids seen are only needed for the decisions a poll can still return
    if (seen.size > POLL_PAGE * 4) seen.delete(seen.keys().next().value!);
    if (waiting) {
      const w = waiting;
      waiting = null;
      w({ value: d, done: false });
      return;
    }
    queue.push(d);
    if (queue.length > DECISION_WATCH_BUFFER) queue.shift();
  };

  const stopListening = deps.decisionBus?.listen(s.id, (d) => {
    const { accountId, ...view } = d;
    void accountId;
    offer(view);
  });
  // what is there already is the past: remembered, not sent
  for (const d of await deps.store.standingDecisions.list(s.id, { limit: POLL_PAGE })) seen.set(d.id, versionOf(toDecisionView(d)));

  let polling = false;
  const timer = setInterval(() => {
    if (polling || done) return;
    polling = true;
    deps.store.standingDecisions
      .list(s.id, { limit: POLL_PAGE })
      .then((page) => {
        for (const d of page.reverse()) offer(toDecisionView(d));
      })
      // a failed read is tried again at the next poll
      .catch(() => undefined)
      .finally(() => (polling = false));
  }, options.pollMs ?? DECISION_POLL_MS);
  timer.unref();

  const finish = (): IteratorResult<DecisionView> => {
    done = true;
    clearInterval(timer);
    stopListening?.();
    queue.length = 0;
    return { value: undefined, done: true };
  };

  const iterator: AsyncIterableIterator<DecisionView> = {
    async next() {
      if (done) return finish();
      const queued = queue.shift();
      if (queued) return { value: queued, done: false };
      return new Promise<IteratorResult<DecisionView>>((resolve) => (waiting = resolve));
    },
    async return() {
      const w = waiting;
      waiting = null;
      const r = finish();
      w?.(r);
      return r;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
