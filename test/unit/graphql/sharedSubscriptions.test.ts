import { buildSchema, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { createSharedSubscribe } from '../../../src/graphql/sharedSubscriptions';

/** A schema whose `ticks` subscription counts how many source streams were opened and closed. */
function setup() {
  const schema = buildSchema('type Query { ok: Boolean } type Subscription { ticks: Int! }');
  const listeners = new Set<(n: number) => void>();
  const enders = new Set<() => void>();
  const stats = { opened: 0, closed: 0, executed: 0 };
  const rootValue = {
    ticks: () => {
      stats.opened++;
      const queue: number[] = [];
      let wake: (() => void) | null = null;
      let ended = false;
      const l = (n: number) => {
        queue.push(n);
        wake?.();
      };
      listeners.add(l);
      enders.add(() => {
        ended = true;
        wake?.();
      });
      const it: AsyncIterableIterator<unknown> = {
        async next() {
          while (queue.length === 0 && !ended) await new Promise<void>((r) => (wake = r));
          if (queue.length === 0) return { value: undefined, done: true };
          stats.executed++;
          return { value: { ticks: queue.shift() }, done: false };
        },
        async return() {
          stats.closed++;
          listeners.delete(l);
          return { value: undefined, done: true };
        },
        [Symbol.asyncIterator]: () => it,
      };
      return it;
    },
  };
  const document = parse('subscription { ticks }');
  const args = (): ExecutionArgs => ({ schema, document, rootValue, contextValue: {} });
  const publish = (n: number) => listeners.forEach((l) => l(n));
  /** Ends every open source stream (the subscription's resolver completes). */
  const endSources = () => enders.forEach((e) => e());
  return { args, publish, stats, endSources, schema };
}

const next = async (it: unknown) => ((await (it as AsyncIterator<ExecutionResult>).next()).value as ExecutionResult).data;

describe('shared subscriptions', () => {
  it('behavior: identical subscriptions share one source; a late joiner gets the latest result first', async () => {
    const { args, publish, stats } = setup();
    const joined: string[] = [];
    const subscribe = createSharedSubscribe({ keyOf: () => 'k', onJoin: async () => void joined.push('x') });
    const a = await subscribe(args());
    const b = await subscribe(args());
    publish(1);
    expect(await next(a)).toEqual({ ticks: 1 });
    expect(await next(b)).toEqual({ ticks: 1 });
    const c = await subscribe(args());
    expect(await next(c)).toEqual({ ticks: 1 });
    expect(stats.opened).toBe(1);
    expect(joined).toHaveLength(2);
  });

  it('behavior: the source closes when the last subscriber leaves, and a new one opens a new source', async () => {
    const { args, stats } = setup();
    const subscribe = createSharedSubscribe({ keyOf: () => 'k' });
    const a = (await subscribe(args())) as AsyncIterableIterator<ExecutionResult>;
    const b = (await subscribe(args())) as AsyncIterableIterator<ExecutionResult>;
    await a.return!();
    expect(stats.closed).toBe(0);
    await b.return!();
    expect(stats.closed).toBe(1);
    await subscribe(args());
    expect(stats.opened).toBe(2);
  });

  it('error: a joiner refused by onJoin gets an error result and does not join', async () => {
    const { args, stats } = setup();
    const subscribe = createSharedSubscribe({
      keyOf: () => 'k',
      onJoin: async () => {
        throw new Error('no credits');
      },
    });
    await subscribe(args());
    const refused = (await subscribe(args())) as ExecutionResult;
    expect(refused.errors?.[0]?.message).toBe('no credits');
    expect(stats.opened).toBe(1);
  });

  it('behavior: a null key is not shared', async () => {
    const { args, stats } = setup();
    const subscribe = createSharedSubscribe({ keyOf: () => null });
    await subscribe(args());
    await subscribe(args());
    expect(stats.opened).toBe(2);
  });

  it('error: a subscriber of an ended group leaving late does not remove the newer group under the same key', async () => {
    const { args, publish, stats, endSources } = setup();
    const subscribe = createSharedSubscribe({ keyOf: () => 'k' });
    const a = (await subscribe(args())) as AsyncIterableIterator<ExecutionResult>;
    endSources();
    expect((await a.next()).done).toBe(true); // group 1's source ended
    const b = await subscribe(args()); // group 2 under the same key
    expect(stats.opened).toBe(2);
    await a.return!(); // the old subscriber lets go late
    const c = await subscribe(args()); // must join group 2, not open a third source
    expect(stats.opened).toBe(2);
    publish(7);
    expect(await next(b)).toEqual({ ticks: 7 });
    expect(await next(c)).toEqual({ ticks: 7 });
  });

  it('error: a subscribe that rejects is not cached: a concurrent and a later subscriber each get a working stream', async () => {
    const { args, publish } = setup();
    const subscribe = createSharedSubscribe({ keyOf: () => 'k' });
    // An invalid schema makes graphql's subscribe throw (reject), as an internal fault would.
    const broken = subscribe({ ...args(), schema: {} as never });
    const concurrent = subscribe(args());
    await expect(broken).rejects.toThrow();
    const c = await concurrent;
    const later = await subscribe(args());
    publish(3);
    expect(await next(c)).toEqual({ ticks: 3 });
    expect(await next(later)).toEqual({ ticks: 3 });
  });
});
