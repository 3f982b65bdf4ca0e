import { randomBytes } from 'node:crypto';
import type { Intent } from '../../src/domain/intent';
import type { IntentChange, IntentChangeFeed, Store } from '../../src/ports/store';
import { pendingIntent } from '../unit/engine/intentFixture';

/**
 * The IntentChangeFeed contract of src/ports/store.ts (`Store.intentChanges`):
 * what the cross-instance bus relies on. Every adapter with a feed runs it
 * (intentChanges.memory.test.ts, intentChanges.mongo.test.ts). Intents use
 * random ids, and each test reads only its own, so tests share one store.
 */

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const fresh = (): Intent => pendingIntent({ id: `intent_${hex(16)}`, accountId: `acct_${hex(16)}`, walletId: `svc_wallet_${hex(16)}` });
const next = (i: Intent, over: Partial<Intent> = {}): Intent => ({
  ...i,
  version: i.version + 1,
  updatedAt: new Date(Date.parse(i.updatedAt) + 1000).toISOString(),
  ...over,
});

async function until(done: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

interface Watch {
  changes: IntentChange[];
  errors: unknown[];
  of(id: string): IntentChange[];
  stop(): Promise<void>;
}

async function watch(feed: IntentChangeFeed, resumeAfter?: unknown): Promise<Watch> {
  const changes: IntentChange[] = [];
  const errors: unknown[] = [];
  const stop = await feed.watch((c) => changes.push(c), { ...(resumeAfter === undefined ? {} : { resumeAfter }), onError: (e) => errors.push(e) });
  return { changes, errors, of: (id) => changes.filter((c) => c.intent.id === id), stop };
}

/**
 * Registers the contract. `kind` gates what depends on history: only MongoDB
 * keeps one (the oplog), so only there does `resumeAfter` replay what was
 * written while nobody watched; the memory feed publishes to the watchers of
 * the moment and keeps nothing, which is all one process needs.
 */
export function describeIntentChangesContract(
  name: string,
  kind: Store['kind'],
  makeStore: () => Promise<Pick<Store, 'intents' | 'intentChanges' | 'close'>>,
): void {
  describe(`intent change feed contract: ${name}`, () => {
    let store: Pick<Store, 'intents' | 'intentChanges' | 'close'>;
    let feed: IntentChangeFeed;
    const open: Watch[] = [];
    const watching = async (resumeAfter?: unknown): Promise<Watch> => {
      const w = await watch(feed, resumeAfter);
      open.push(w);
      return w;
    };

    /** Writes a sentinel intent and waits until every watch in `ws` saw it: the feed is ordered, so all written before it was delivered. */
    async function settled(...ws: Watch[]): Promise<void> {
      const sentinel = fresh();
      await store.intents.insert(sentinel);
      await until(() => ws.every((w) => w.of(sentinel.id).length > 0));
      for (const w of ws) expect(w.of(sentinel.id)).toHaveLength(1);
    }

    beforeAll(async () => {
      store = await makeStore();
      if (!store.intentChanges) throw new Error(`the ${name} store has no intentChanges`);
      feed = store.intentChanges;
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((w) => w.stop()));
    });
    afterAll(async () => {
      await store?.close();
    });

    test('behavior: an insert and two updates are delivered in order (versions 0, 1, 2), whole, each with a resume token', async () => {
      const w = await watching();
      const v0 = fresh();
      const v1 = next(v0, { status: 'planning' });
      const v2 = next(v1, { status: 'executing' });
      await store.intents.insert(v0);
      await store.intents.update(v1, 0);
      await store.intents.update(v2, 1);
      await until(() => w.of(v0.id).length >= 3);
      const mine = w.of(v0.id);
      expect(mine.map((c) => c.intent.version)).toEqual([0, 1, 2]);
      expect(mine.map((c) => c.intent)).toEqual([v0, v1, v2]);
      for (const c of mine) expect(c.resumeToken ?? null).not.toBeNull();
      expect(w.errors).toEqual([]);
    });

    test('behavior: several watches each get every change', async () => {
      const [a, b] = [await watching(), await watching()];
      const i = fresh();
      await store.intents.insert(i);
      await store.intents.update(next(i), 0);
      await settled(a, b);
      expect(a.of(i.id).map((c) => c.intent.version)).toEqual([0, 1]);
      expect(b.of(i.id).map((c) => c.intent.version)).toEqual([0, 1]);
    });

    test('error: a failed update (version conflict) delivers nothing', async () => {
      const w = await watching();
      const i = fresh();
      await store.intents.insert(i);
      await expect(store.intents.update({ ...next(i), status: 'failed' }, 5)).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
      await settled(w);
      expect(w.of(i.id).map((c) => c.intent.version)).toEqual([0]);
    });

    test('behavior: after stop, nothing more is delivered', async () => {
      const stopped = await watching();
      const witness = await watching();
      const i = fresh();
      await store.intents.insert(i);
      await until(() => stopped.of(i.id).length === 1);
      await stopped.stop();
      await store.intents.update(next(i), 0);
      await settled(witness);
      expect(witness.of(i.id).map((c) => c.intent.version)).toEqual([0, 1]);
      expect(stopped.of(i.id).map((c) => c.intent.version)).toEqual([0]);
    });

    // Only MongoDB keeps history (see above): the memory feed cannot replay what was written while nobody watched.
    (kind === 'mongo' ? test : test.skip)("behavior: watching again after a change's token delivers exactly the changes written after it", async () => {
      const first = await watching();
      const i = fresh();
      await store.intents.insert(i);
      await until(() => first.of(i.id).length === 1);
      await first.stop();
      const token = first.of(i.id)[0]!.resumeToken;
      const v1 = next(i);
      const v2 = next(v1);
      await store.intents.update(v1, 0);
      await store.intents.update(v2, 1);
      const resumed = await watching(token);
      await settled(resumed);
      expect(resumed.of(i.id).map((c) => c.intent)).toEqual([v1, v2]);
      expect(resumed.errors).toEqual([]);
    });
  });
}
