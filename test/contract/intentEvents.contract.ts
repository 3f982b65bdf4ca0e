import type { Intent } from '../../src/domain/intent';
import type { Store } from '../../src/ports/store';
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

    test('behavior: a reader cannot change the log through an entry it read (a write is refused or stays its own)', async () => {
      const start = await store.intentEvents.head();
      await store.intentEvents.append('instance_d', snapshot('intent_log_ro', 1));
      const [entry] = await store.intentEvents.readAfter(start, 1);
      for (const attempt of [() => ((entry as { origin: string }).origin = 'forged'), () => ((entry!.intent as { status: string }).status = 'failed')]) {
        try {
          attempt();
        } catch (e) {
          expect((e as Error).name).toBe('TypeError');
        }
      }
      const [again] = await store.intentEvents.readAfter(start, 1);
      expect([again?.origin, again?.intent.status]).toEqual(['instance_d', 'pending']);
    });

    test('behavior: 40 concurrent appends get 40 distinct numbers, read back as one gapless run', async () => {
      const start = await store.intentEvents.head();
      const seqs = await Promise.all(Array.from({ length: 40 }, (_, i) => store.intentEvents.append('instance_c', snapshot(`intent_c${i}`, 1))));
      expect(new Set(seqs).size).toBe(40);
      const read = await store.intentEvents.readAfter(start, 100);
      // Every append is read back, in sequence order.
      expect(read.map((e) => e.seq)).toEqual([...seqs].sort((a, b) => a - b));
      // Gapless where the counter is isolated: in memory always; on a server that hands a number out twice
      // (non-isolated findAndModify, see the store contract's probe) the append takes the next one and leaves a gap.
      if (store.kind !== 'mongo') expect(read.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => start + i + 1));
    });
  });
}
