import type { DecisionView } from './standingView';

/** A decision as published: its view and the account it belongs to. */
export type PublishedDecision = DecisionView & { accountId: string };

/**
 * In-process publish/subscribe of recorded decisions, by standing intent:
 * the decider publishes each decision once it is settled (its intent
 * recorded), subscribers on this instance hear it at once. Decisions taken
 * by another instance reach subscribers through the store instead
 * (watchDecisions polls it), so the bus needs no cross-instance feed.
 */
export interface DecisionBus {
  publish(decision: PublishedDecision): void;
  /** Calls `listener` for each decision of the standing intent; returns the unsubscribe function. A throwing listener is ignored. */
  listen(standingIntentId: string, listener: (decision: PublishedDecision) => void): () => void;
  /** Live listeners. */
  size(): number;
}

export function createDecisionBus(): DecisionBus {
  const listeners = new Map<string, Set<(d: PublishedDecision) => void>>();
  return {
    publish(decision) {
      for (const listener of listeners.get(decision.standingIntentId) ?? []) {
        try {
          listener(decision);
        } catch {
          // one faulty listener must not keep the decision from the others
        }
      }
    },
    listen(standingIntentId, listener) {
      let set = listeners.get(standingIntentId);
      if (!set) listeners.set(standingIntentId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(standingIntentId) === set) listeners.delete(standingIntentId);
      };
    },
    size() {
      let n = 0;
      for (const set of listeners.values()) n += set.size;
      return n;
    },
  };
}
