import { randomBytes } from 'node:crypto';
import { createMemoryStore } from '../../src/store/memory/memoryStore';
import type { Intent } from '../../src/domain/intent';
import type { IntentChange, IntentChangeFeed, Store } from '../../src/ports/store';

/** The memory store's IntentChangeFeed: every insert and update of this process, published synchronously after the write. */

const hex = (n: number) => randomBytes(n).toString('hex');
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

function intent(over: Partial<Intent> = {}): Intent {
  return {
    id: `intent_${hex(16)}`,
    accountId: `acct_${hex(16)}`,
    walletId: `svc_wallet_${hex(16)}`,
    status: 'pending',
    action: 'lend',
    amount: '100',
    requestedAmount: '100',
    asset: 'USDC',
    executionPlan: null,
    createdAt: at(0),
    updatedAt: at(0),
    version: 0,
    ...over,
  };
}

/** The store and its feed (the memory store always has one). */
function memoryStoreWithFeed(): { store: Store; feed: IntentChangeFeed } {
  const store = createMemoryStore();
  if (!store.intentChanges) throw new Error('the memory store has no intent change feed');
  return { store, feed: store.intentChanges };
}

describe('memory intent change feed', () => {
  test('behavior: inserts and updates are delivered in write order, synchronously, with the stored (frozen) record and increasing tokens', async () => {
    const { store, feed } = memoryStoreWithFeed();
    const seen: IntentChange[] = [];
    await feed.watch((c) => seen.push(c));
    const i = intent();
    await store.intents.insert(i);
    expect(seen).toHaveLength(1);
    const next: Intent = { ...i, status: 'planning', version: 1, updatedAt: at(1) };
    await store.intents.update(next, 0);
    const other = intent();
    await store.intents.insert(other);
    expect(seen.map((c) => [c.intent.id, c.intent.version])).toEqual([
      [i.id, 0],
      [i.id, 1],
      [other.id, 0],
    ]);
    const tokens = seen.map((c) => c.resumeToken as number);
    expect(tokens.every((t, n) => typeof t === 'number' && (n === 0 || t > tokens[n - 1]!))).toBe(true);
    expect(seen[1]!.intent).toBe(await store.intents.get(i.id));
    expect(Object.isFrozen(seen[0]!.intent)).toBe(true);
  });

  test('behavior: a refused write (a version conflict, a duplicate id) notifies nothing', async () => {
    const { store, feed } = memoryStoreWithFeed();
    const i = intent();
    await store.intents.insert(i);
    const seen: IntentChange[] = [];
    await feed.watch((c) => seen.push(c));
    await expect(store.intents.update({ ...i, status: 'planning', version: 6 }, 5)).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    await expect(store.intents.update(intent({ version: 1 }), 0)).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    await expect(store.intents.insert(i)).rejects.toMatchObject({ name: 'DuplicateError' });
    expect(seen).toEqual([]);
  });

  test('behavior: a watch sees only writes after it opened; unsubscribing stops delivery to it and not to others', async () => {
    const { store, feed } = memoryStoreWithFeed();
    await store.intents.insert(intent());
    const first: IntentChange[] = [];
    const second: IntentChange[] = [];
    const stopFirst = await feed.watch((c) => first.push(c));
    await feed.watch((c) => second.push(c));
    await store.intents.insert(intent());
    await stopFirst();
    await store.intents.insert(intent());
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(2);
  });

  test('behavior: resumeAfter skips changes up to that token (the memory feed keeps no history: nothing older is replayed)', async () => {
    const { store, feed } = memoryStoreWithFeed();
    const seen: IntentChange[] = [];
    await feed.watch((c) => seen.push(c));
    await store.intents.insert(intent());
    await store.intents.insert(intent());
    const resumed: IntentChange[] = [];
    await feed.watch((c) => resumed.push(c), { resumeAfter: seen[0]!.resumeToken });
    const later = intent();
    await store.intents.insert(later);
    expect(resumed.map((c) => c.intent.id)).toEqual([later.id]);
  });

  test('behavior: a throwing listener does not fail the write, is told through its onError, and other listeners still hear the change', async () => {
    const { store, feed } = memoryStoreWithFeed();
    const errors: unknown[] = [];
    await feed.watch(
      () => {
        throw new Error('listener broke');
      },
      { onError: (e) => errors.push(e) },
    );
    await feed.watch(() => {
      throw new Error('listener without onError broke');
    });
    const heard: IntentChange[] = [];
    await feed.watch((c) => heard.push(c));
    const i = intent();
    await expect(store.intents.insert(i)).resolves.toBeUndefined();
    await expect(store.intents.update({ ...i, version: 1, status: 'planning' }, 0)).resolves.toBeUndefined();
    expect((await store.intents.get(i.id))?.version).toBe(1);
    expect(errors).toHaveLength(2);
    expect(heard).toHaveLength(2);
  });
});
