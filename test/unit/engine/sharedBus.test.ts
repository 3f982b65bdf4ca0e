import { SimulatedClock } from '../../../src/domain/clock';
import { createIntentBus } from '../../../src/engine/eventBus';
import { createSharedBus, type SharedBus } from '../../../src/engine/sharedBus';
import { createMemoryIntentEvents } from '../../../src/store/memory/memoryIntentEvents';
import type { IntentEventEntry, IntentEventLog } from '../../../src/ports/store';
import type { Intent } from '../../../src/domain/intent';
import { pendingIntent } from './intentFixture';

const snap = (version: number, id = 'intent_shared'): Intent => pendingIntent({ id, version });
/** The followers poll every POLL_MS of the simulated clock. */
const POLL_MS = 5;

describe('shared intent bus (one event log, several instances)', () => {
  const buses: SharedBus[] = [];
  let clock: SimulatedClock;
  beforeEach(() => {
    clock = new SimulatedClock(Date.UTC(2026, 0, 1));
  });
  afterEach(() => buses.splice(0).forEach((b) => b.stop()));

  async function instance(log: IntentEventLog, origin: string, o: { gapWaitMs?: number } = {}) {
    const local = createIntentBus();
    const bus = await createSharedBus(local, log, { origin, clock, pollMs: POLL_MS, ...o });
    buses.push(bus);
    const seen: number[] = [];
    bus.listen('all', (i) => seen.push(i.version));
    return { bus, seen };
  }

  test('behavior: what one instance publishes reaches the other in order, and each instance sees its own snapshots once', async () => {
    const log = createMemoryIntentEvents();
    const a = await instance(log, 'instance_a');
    const b = await instance(log, 'instance_b');
    for (const v of [1, 2, 3]) a.bus.publish(snap(v));
    expect(b.seen).toEqual([]);
    await clock.run(POLL_MS);
    expect(b.seen).toEqual([1, 2, 3]);
    await clock.run(POLL_MS * 6);
    expect(a.seen).toEqual([1, 2, 3]);
    expect(b.seen).toEqual([1, 2, 3]);
  });

  test('behavior: an older snapshot arriving after a newer one is not delivered (no reordered update)', async () => {
    const log = createMemoryIntentEvents();
    const b = await instance(log, 'instance_b');
    await log.append('instance_x', snap(3));
    await log.append('instance_y', snap(2));
    await log.append('instance_x', snap(4));
    await clock.run(POLL_MS * 6);
    expect(b.seen).toEqual([3, 4]);
  });

  test('behavior: a gap in the sequence is waited for; the entry written late is delivered in its place', async () => {
    const entries: IntentEventEntry[] = [];
    const log: IntentEventLog = {
      append: async () => 0,
      readAfter: async (after, limit) =>
        entries
          .filter((e) => e.seq > after)
          .sort((x, y) => x.seq - y.seq)
          .slice(0, limit),
      head: async () => 0,
    };
    const b = await instance(log, 'instance_b', { gapWaitMs: 5_000 });
    entries.push({ seq: 1, origin: 'x', intent: snap(1, 'intent_g1') }, { seq: 3, origin: 'x', intent: snap(1, 'intent_g3') });
    await clock.run(POLL_MS);
    expect(b.seen).toHaveLength(1);
    await clock.run(4_000);
    expect(b.seen).toHaveLength(1);
    entries.push({ seq: 2, origin: 'x', intent: snap(1, 'intent_g2') });
    await clock.run(POLL_MS);
    expect(b.seen).toHaveLength(3);
  });

  test('error: a gap never filled is skipped after the wait, reported once', async () => {
    const errors: string[] = [];
    const entries: IntentEventEntry[] = [{ seq: 2, origin: 'x', intent: snap(1) }];
    const log: IntentEventLog = { append: async () => 0, readAfter: async (after) => entries.filter((e) => e.seq > after), head: async () => 0 };
    const local = createIntentBus();
    const seen: Intent[] = [];
    local.listen('all', (i) => seen.push(i));
    buses.push(await createSharedBus(local, log, { origin: 'me', clock, pollMs: POLL_MS, gapWaitMs: 40, onError: (_e, what) => errors.push(what) }));
    // the gap is seen at the first poll; the entry after it waits 40 ms from then
    await clock.run(POLL_MS + 35);
    expect(seen).toHaveLength(0);
    expect(errors).toEqual([]);
    await clock.run(POLL_MS);
    expect(seen).toHaveLength(1);
    expect(errors).toEqual(['gap']);
    await clock.run(POLL_MS * 20);
    expect(errors).toEqual(['gap']);
  });

  test('behavior: a stopped follower sets no more polls', async () => {
    const b = await instance(createMemoryIntentEvents(), 'instance_b');
    await clock.run(POLL_MS * 3);
    expect(clock.pendingTimers()).toBe(1);
    b.bus.stop();
    expect(clock.pendingTimers()).toBe(0);
  });
});
