import { GraphQLError, subscribe as graphqlSubscribe, type ExecutionArgs, type ExecutionResult } from 'graphql';

type Source = AsyncIterableIterator<ExecutionResult>;
type SubscribeResult = Source | ExecutionResult;

/** Results kept for a subscriber that reads slowly; beyond it the oldest are dropped (each result is a full snapshot). */
const SUBSCRIBER_BUFFER = 64;

interface Group {
  subscribers: Set<Subscriber>;
  /** The latest result, handed first to a subscriber that joins late (the current snapshot). */
  last: ExecutionResult | null;
  source: Source | null;
}

interface Subscriber {
  push(r: ExecutionResult): void;
  end(): void;
}

/** One subscriber's bounded queue as an async iterator; `return()` leaves the group. */
function subscriberIterator(leave: (s: Subscriber) => void): Source & Subscriber {
  const queue: ExecutionResult[] = [];
  let waiting: ((r: IteratorResult<ExecutionResult>) => void) | null = null;
  let ended = false;
  const self: Source & Subscriber = {
    push(r) {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w({ value: r, done: false });
        return;
      }
      queue.push(r);
      if (queue.length > SUBSCRIBER_BUFFER) queue.shift();
    },
    end() {
      ended = true;
      const w = waiting;
      waiting = null;
      w?.({ value: undefined, done: true });
    },
    async next() {
      const r = queue.shift();
      if (r) return { value: r, done: false };
      if (ended) return { value: undefined, done: true };
      return new Promise((resolve) => (waiting = resolve));
    },
    async return() {
      leave(self);
      self.end();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => self,
  };
  return self;
}

/**
 * Identical subscriptions (same account, document, operation and variables)
 * share one source stream: each event is executed once and the same result is
 * handed to every subscriber, instead of once per subscriber. A subscriber
 * that joins late first gets the latest result. `keyOf` returns null for
 * operations that must not be shared; `onJoin` runs for every subscriber that
 * joins an existing group (the creator pays through its resolver).
 */
export function createSharedSubscribe(o: {
  keyOf(args: ExecutionArgs): string | null;
  onJoin?(args: ExecutionArgs): Promise<void>;
}): (args: ExecutionArgs) => Promise<SubscribeResult> {
  // Each entry is the promise of its group; teardown compares entries by identity, so it removes only its own.
  const groups = new Map<string, Promise<Group | ExecutionResult>>();
  const entries = new WeakMap<Group, Promise<Group | ExecutionResult>>();
  const forget = (key: string, entry: Promise<Group | ExecutionResult> | undefined) => {
    if (entry !== undefined && groups.get(key) === entry) groups.delete(key);
  };

  const leave = (key: string, group: Group) => (s: Subscriber) => {
    group.subscribers.delete(s);
    if (group.subscribers.size === 0) {
      forget(key, entries.get(group));
      void group.source?.return?.();
    }
  };

  /** Pulls the shared source and hands every result to every subscriber. */
  async function pump(key: string, group: Group): Promise<void> {
    try {
      for await (const result of group.source!) {
        group.last = result;
        for (const s of group.subscribers) s.push(result);
      }
    } finally {
      forget(key, entries.get(group));
      for (const s of group.subscribers) s.end();
    }
  }

  return async (args) => {
    const key = o.keyOf(args);
    if (key === null) return graphqlSubscribe(args);
    const existing = groups.get(key);
    if (existing) {
      // A rejected or error-only entry is never joined (its creator removes it); a fresh group is made below.
      const group = await existing.catch(() => null);
      if (group && 'subscribers' in group && groups.get(key) === existing) {
        try {
          await o.onJoin?.(args);
        } catch (e) {
          return { errors: [new GraphQLError((e as Error).message, { originalError: e as Error })] };
        }
        const it = subscriberIterator(leave(key, group));
        group.subscribers.add(it);
        if (group.last) it.push(group.last);
        return it;
      }
    }
    // Declared before it is assigned: the group made inside refers to its own entry.
    let created!: Promise<Group | ExecutionResult>;
    // eslint-disable-next-line prefer-const
    created = (async (): Promise<Group | ExecutionResult> => {
      const source = await graphqlSubscribe(args);
      if (!(Symbol.asyncIterator in source)) return source;
      const g: Group = { subscribers: new Set(), last: null, source };
      entries.set(g, created); // before anyone can join it, so any teardown knows its entry
      return g;
    })();
    groups.set(key, created);
    let group: Group | ExecutionResult;
    try {
      group = await created;
    } catch (e) {
      forget(key, created); // a failed subscribe is not cached: the next subscriber tries again
      throw e;
    }
    if (!('subscribers' in group)) {
      forget(key, created);
      return group;
    }
    const it = subscriberIterator(leave(key, group));
    group.subscribers.add(it);
    void pump(key, group);
    return it;
  };
}
