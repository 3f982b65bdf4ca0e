import { createIntentBus } from '../../../src/engine/eventBus';
import { pendingIntent } from './intentFixture';

const snap = (id: string, version: number, walletId = 'svc_wallet_0001') => pendingIntent({ id, version, walletId });

describe('intent event bus', () => {
  test('behavior: listeners get matching snapshots synchronously, by intent, by wallet and all', () => {
    const bus = createIntentBus();
    const byIntent: number[] = [];
    const byWallet: string[] = [];
    const all: string[] = [];
    bus.listen({ intentId: 'a' }, (i) => byIntent.push(i.version));
    bus.listen({ walletId: 'w2' }, (i) => byWallet.push(i.id));
    bus.listen('all', (i) => all.push(`${i.id}@${i.version}`));
    bus.publish(snap('a', 1));
    bus.publish(snap('b', 1, 'w2'));
    bus.publish(snap('a', 2));
    expect(byIntent).toEqual([1, 2]);
    expect(byWallet).toEqual(['b']);
    expect(all).toEqual(['a@1', 'b@1', 'a@2']);
  });

  test('behavior: unsubscribe stops delivery; a throwing listener does not starve the others', () => {
    const bus = createIntentBus();
    const seen: number[] = [];
    bus.listen('all', () => {
      throw new Error('listener bug');
    });
    const off = bus.listen('all', (i) => seen.push(i.version));
    bus.publish(snap('a', 1));
    off();
    bus.publish(snap('a', 2));
    expect(seen).toEqual([1]);
    expect(bus.size()).toBe(1);
  });

  test('behavior: a subscription yields snapshots in order to a reader that keeps up', async () => {
    const bus = createIntentBus();
    const sub = bus.subscribe({ intentId: 'a' });
    const first = sub.next();
    bus.publish(snap('a', 1));
    expect(await first).toEqual({ value: snap('a', 1), done: false });
    bus.publish(snap('b', 1));
    bus.publish(snap('a', 2));
    expect((await sub.next()).value?.version).toBe(2);
    sub.close();
    expect(await sub.next()).toEqual({ value: undefined, done: true });
    expect(bus.size()).toBe(0);
  });

  test('behavior: a slow reader keeps only the latest unread snapshot per intent (bounded, versions never go back)', async () => {
    const bus = createIntentBus();
    const sub = bus.subscribe('all');
    for (let v = 1; v <= 1000; v++) bus.publish(snap('a', v));
    bus.publish(snap('b', 1));
    bus.publish(snap('a', 1001));
    expect((await sub.next()).value).toMatchObject({ id: 'a', version: 1001 });
    expect((await sub.next()).value).toMatchObject({ id: 'b', version: 1 });
    sub.close();
  });

  test('behavior: at most maxBuffered intents wait; the oldest unread one is dropped', async () => {
    const bus = createIntentBus();
    const sub = bus.subscribe('all', { maxBuffered: 2 });
    bus.publish(snap('a', 1));
    bus.publish(snap('b', 1));
    bus.publish(snap('c', 1));
    expect((await sub.next()).value?.id).toBe('b');
    expect((await sub.next()).value?.id).toBe('c');
    sub.close();
  });

  test('behavior: for await ends when the signal aborts; a pending read resolves done', async () => {
    const bus = createIntentBus();
    const controller = new AbortController();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const i of bus.subscribe({ intentId: 'a' }, { signal: controller.signal })) seen.push(i.version);
    })();
    bus.publish(snap('a', 1));
    await new Promise((r) => setImmediate(r));
    controller.abort();
    await reading;
    expect(seen).toEqual([1]);
    expect(bus.size()).toBe(0);
  });
});
