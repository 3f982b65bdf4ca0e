import { createKeyUseRecorder, type KeyUseRecorder } from '../../../src/app/accounts/keyUse';
import { deferred } from '../engine/deferred';

/**
 * lastUsedAt in batches (keyUse.ts): requests only touch a map, one
 * recordUse per flush writes the latest time of each key.
 */
type Use = { id: string; at: string };
const HOUR = 60 * 60 * 1000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const iso = (ms: number) => at(ms).toISOString();
const byId = (uses: readonly Use[]) => Object.fromEntries(uses.map((u) => [u.id, u.at]));

const recorders: KeyUseRecorder[] = [];
/** A recorder whose timer never fires during a test (flushes are the test's). */
function recorder(recordUse: (uses: readonly Use[]) => Promise<void>, onError?: (err: unknown) => void): KeyUseRecorder {
  const r = createKeyUseRecorder({ recordUse }, { flushMs: HOUR, onError });
  recorders.push(r);
  return r;
}
afterEach(async () => {
  // stop() flushes: whatever a test left pending goes to its own (possibly failing) fake, caught here.
  await Promise.all(recorders.splice(0).map((r) => r.stop().catch(() => undefined)));
});

test('behavior: 1,000 uses of 3 keys make exactly one recordUse with 3 entries, each the latest time, and nothing before flush', async () => {
  const calls: Use[][] = [];
  const r = recorder(async (uses) => void calls.push([...uses]));
  const keys = ['key_a', 'key_b', 'key_c'];
  const latest: Record<string, number> = {};
  for (let i = 0; i < 1_000; i++) {
    const id = keys[i % 3]!;
    // times go back and forth: the latest must win, not the last recorded
    const ms = (i * 7919) % 1_000_003;
    r.record(id, at(ms));
    latest[id] = Math.max(latest[id] ?? -1, ms);
  }
  await new Promise((resolve) => setImmediate(resolve));
  expect(calls).toHaveLength(0);

  await r.flush();
  expect(calls).toHaveLength(1);
  expect(calls[0]).toHaveLength(3);
  expect(byId(calls[0]!)).toEqual(Object.fromEntries(keys.map((k) => [k, iso(latest[k]!)])));

  // nothing pending: the next flush writes nothing
  await r.flush();
  expect(calls).toHaveLength(1);
});

test('behavior: an earlier time recorded after a later one does not replace it', async () => {
  const calls: Use[][] = [];
  const r = recorder(async (uses) => void calls.push([...uses]));
  r.record('key_a', at(5_000));
  r.record('key_a', at(1_000));
  await r.flush();
  expect(calls).toEqual([[{ id: 'key_a', at: iso(5_000) }]]);
});

test('error: a failing recordUse is retried with the next flush, newer times recorded meanwhile kept', async () => {
  const calls: Use[][] = [];
  const errors: unknown[] = [];
  const inFlight = deferred<void>();
  let failNext = true;
  const r = recorder(
    async (uses) => {
      calls.push([...uses]);
      if (failNext) {
        failNext = false;
        await inFlight.promise;
        throw new Error('store down');
      }
    },
    (err) => errors.push(err),
  );
  r.record('key_a', at(1_000));
  r.record('key_b', at(1_000));
  const first = r.flush();
  await new Promise((resolve) => setImmediate(resolve));
  expect(calls).toHaveLength(1);

  // while the failing batch is in flight: a newer use of key_a, and a first use of key_c
  r.record('key_a', at(2_000));
  r.record('key_c', at(1_500));
  inFlight.reject(new Error('store down'));
  await first; // the failure is the recorder's, not the caller's
  expect(errors).toHaveLength(1);
  expect((errors[0] as Error).message).toBe('store down');

  await r.flush();
  expect(calls).toHaveLength(2);
  expect(byId(calls[1]!)).toEqual({ key_a: iso(2_000), key_b: iso(1_000), key_c: iso(1_500) });
  expect(calls[1]).toHaveLength(3);

  await r.flush();
  expect(calls).toHaveLength(2);
});

test('error: a failed batch is kept through several failures, then written once', async () => {
  const calls: Use[][] = [];
  let failures = 3;
  const r = recorder(async (uses) => {
    calls.push([...uses]);
    if (failures-- > 0) throw new Error('store down');
  });
  r.record('key_a', at(1_000));
  for (let i = 0; i < 3; i++) await r.flush();
  r.record('key_b', at(3_000));
  await r.flush();
  expect(calls).toHaveLength(4);
  expect(calls.slice(0, 3).map(byId)).toEqual([{ key_a: iso(1_000) }, { key_a: iso(1_000) }, { key_a: iso(1_000) }]);
  expect(byId(calls[3]!)).toEqual({ key_a: iso(1_000), key_b: iso(3_000) });
});

test('behavior: flushes run one at a time, in order (a second flush waits for the first batch)', async () => {
  const calls: Use[][] = [];
  const gate = deferred<void>();
  let active = 0;
  let maxActive = 0;
  const r = recorder(async (uses) => {
    active++;
    maxActive = Math.max(maxActive, active);
    calls.push([...uses]);
    if (calls.length === 1) await gate.promise;
    active--;
  });
  r.record('key_a', at(1_000));
  const first = r.flush();
  await new Promise((resolve) => setImmediate(resolve));
  r.record('key_a', at(2_000));
  const second = r.flush();
  await new Promise((resolve) => setImmediate(resolve));
  expect(calls).toHaveLength(1);
  gate.resolve();
  await Promise.all([first, second]);
  expect(maxActive).toBe(1);
  expect(calls.map(byId)).toEqual([{ key_a: iso(1_000) }, { key_a: iso(2_000) }]);
});

test('behavior: stop() flushes what is pending', async () => {
  const calls: Use[][] = [];
  const r = createKeyUseRecorder({ recordUse: async (uses) => void calls.push([...uses]) }, { flushMs: HOUR });
  r.record('key_a', at(1_000));
  r.record('key_b', at(2_000));
  expect(calls).toHaveLength(0);
  await r.stop();
  expect(calls).toHaveLength(1);
  expect(byId(calls[0]!)).toEqual({ key_a: iso(1_000), key_b: iso(2_000) });
});

test('behavior: the interval flushes on its own', async () => {
  jest.useFakeTimers();
  try {
    const calls: Use[][] = [];
    const r = createKeyUseRecorder({ recordUse: async (uses) => void calls.push([...uses]) }, { flushMs: 5_000 });
    r.record('key_a', at(1_000));
    await jest.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls.map(byId)).toEqual([{ key_a: iso(1_000) }]);
    await r.stop();
    expect(calls).toHaveLength(1);
  } finally {
    jest.useRealTimers();
  }
});
