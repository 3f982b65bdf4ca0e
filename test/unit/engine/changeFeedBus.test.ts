import { createIntentBus } from '../../../src/engine/eventBus';
import { createChangeFeedBus, type ChangeFeedBus } from '../../../src/engine/changeFeedBus';
import type { IntentChange, IntentChangeFeed } from '../../../src/ports/store';
import type { Intent } from '../../../src/domain/intent';
import { pendingIntent } from './intentFixture';

const snap = (version: number, id = 'intent_feed'): Intent => pendingIntent({ id, version });

/** An in-test feed: `emit` plays a store write; `watchers` counts live watches. */
function fakeFeed() {
  const watchers = new Set<(change: IntentChange) => void>();
  let token = 0;
  const feed: IntentChangeFeed = {
    async watch(onChange) {
      watchers.add(onChange);
      return async () => {
        watchers.delete(onChange);
      };
    },
  };
  const emit = (intent: Intent): void => {
    token += 1;
    for (const w of watchers) w({ intent, resumeToken: token });
  };
  return { feed, emit, watchers };
}

describe("change feed bus (the store's intent writes, several instances)", () => {
  const buses: ChangeFeedBus[] = [];
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.stop()));
  });

  async function instance(feed: IntentChangeFeed) {
    const bus = await createChangeFeedBus(createIntentBus(), feed);
    buses.push(bus);
    const seen: [string, number][] = [];
    bus.listen('all', (i) => seen.push([i.id, i.version]));
    return { bus, seen };
  }

  test('behavior: a local publish is delivered at once, and only once when the feed echoes it', async () => {
    const { feed, emit } = fakeFeed();
    const a = await instance(feed);
    a.bus.publish(snap(0));
    expect(a.seen).toEqual([['intent_feed', 0]]);
    emit(snap(0)); // the store's write of that snapshot
    a.bus.publish(snap(1));
    emit(snap(1));
    expect(a.seen).toEqual([
      ['intent_feed', 0],
      ['intent_feed', 1],
    ]);
  });

  test("behavior: the feed's echo arriving before the local publish is delivered once", async () => {
    const { feed, emit } = fakeFeed();
    const a = await instance(feed);
    emit(snap(2));
    a.bus.publish(snap(2));
    expect(a.seen).toEqual([['intent_feed', 2]]);
  });

  test("behavior: a change written by another instance reaches this one's subscribers", async () => {
    const { feed, emit } = fakeFeed();
    const a = await instance(feed);
    const b = await instance(feed);
    const sub = b.bus.subscribe({ intentId: 'intent_feed' });
    a.bus.publish(snap(0));
    emit(snap(0));
    expect(b.seen).toEqual([['intent_feed', 0]]);
    expect((await sub.next()).value).toMatchObject({ id: 'intent_feed', version: 0 });
    sub.close();
  });

  test('behavior: an older snapshot after a newer one is dropped (no reordered update)', async () => {
    const { feed, emit } = fakeFeed();
    const b = await instance(feed);
    emit(snap(3));
    emit(snap(2));
    emit(snap(3));
    emit(snap(4));
    expect(b.seen).toEqual([
      ['intent_feed', 3],
      ['intent_feed', 4],
    ]);
  });

  test("behavior: ordering is per intent: one intent's newer version does not hold back another's older one", async () => {
    const { feed, emit } = fakeFeed();
    const b = await instance(feed);
    emit(snap(5, 'intent_x'));
    emit(snap(1, 'intent_y'));
    emit(snap(4, 'intent_x'));
    emit(snap(2, 'intent_y'));
    expect(b.seen).toEqual([
      ['intent_x', 5],
      ['intent_y', 1],
      ['intent_y', 2],
    ]);
  });

  test('behavior: stop ends the watch: later writes are not delivered, local publishes still are', async () => {
    const { feed, emit, watchers } = fakeFeed();
    const b = await instance(feed);
    expect(watchers.size).toBe(1);
    await b.bus.stop();
    expect(watchers.size).toBe(0);
    emit(snap(0));
    expect(b.seen).toEqual([]);
    b.bus.publish(snap(1));
    expect(b.seen).toEqual([['intent_feed', 1]]);
  });

  test('error: a feed that fails to stop is reported, not thrown; feed errors reach onError', async () => {
    const errors: string[] = [];
    let reportFeedError = (_err: unknown): void => undefined;
    const feed: IntentChangeFeed = {
      async watch(_onChange, options) {
        reportFeedError = (err) => options?.onError?.(err);
        return async () => {
          throw new Error('close failed');
        };
      },
    };
    const bus = await createChangeFeedBus(createIntentBus(), feed, { onError: (_e, what) => errors.push(what) });
    reportFeedError(new Error('stream closed'));
    await expect(bus.stop()).resolves.toBeUndefined();
    expect(errors).toEqual(['change feed', 'stop']);
  });
});
