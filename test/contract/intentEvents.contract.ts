import type { Intent } from '../../src/domain/intent';
import type { Store } from '../../src/store/port';
import { pendingIntent } from '../unit/engine/intentFixture';

const snapshot = (id: string, version: number): Intent => pendingIntent({ id, version });

/** The contract every IntentEventLog adapter keeps: sequence numbers strictly increasing and shared, entries read back in order. */
export function describeIntentEventsContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`intent event log contract: ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(() => store?.close());

    test('behavior: appends get increasing sequence numbers; readAfter returns the entries after a number, in order, with origin and snapshot', async () => {
      const start = await store.intentEvents.head();
      const a = await store.intentEvents.append('instance_a', snapshot('intent_log1', 1));
      const b = await store.intentEvents.append('instance_b', snapshot('intent_log1', 2));
      expect(a).toBe(start + 1);
      expect(b).toBe(start + 2);
      expect(await store.intentEvents.head()).toBe(b);
      const read = await store.intentEvents.readAfter(start, 10);
      expect(read.map((e) => [e.seq, e.origin, e.intent.id, e.intent.version])).toEqual([
        [a, 'instance_a', 'intent_log1', 1],
        [b, 'instance_b', 'intent_log1', 2],
      ]);
      expect(await store.intentEvents.readAfter(a, 10)).toHaveLength(1);
      expect(await store.intentEvents.readAfter(start, 1)).toHaveLength(1);
    });

    test('behavior: 40 concurrent appends get 40 distinct numbers, read back as one gapless run', async () => {
      const start = await store.intentEvents.head();
      const seqs = await Promise.all(Array.from({ length: 40 }, (_, i) => store.intentEvents.append('instance_c', snapshot(`intent_c${i}`, 1))));
      expect(new Set(seqs).size).toBe(40);
      const read = await store.intentEvents.readAfter(start, 100);
      expect(read.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => start + i + 1));
    });
  });
}
