import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { IDEMPOTENCY_LEASE_MS, withIdempotency } from '../../../src/app/idempotency';

/** A store and a clock the test moves by hand. */
function setup() {
  let now = Date.parse('2026-11-24T10:00:00Z');
  const clock = { now: () => new Date(now) };
  const store = createMemoryStore(clock);
  return { deps: { store, clock }, advance: (ms: number) => (now += ms) };
}

const params = { scope: 'acct_1:createIntent', key: 'retry-me', request: { walletId: 'w', amount: 1 } };
/** A first attempt that claims the key and never answers: the process died mid-request. */
const crashed = () => new Promise<never>(() => undefined);

describe('Idempotency-Key leases (a crashed first attempt)', () => {
  test('error: before the lease runs out, a retry is 409 IDEMPOTENCY_CONFLICT (the first may still be running)', async () => {
    const { deps, advance } = setup();
    void withIdempotency(deps, params, crashed);
    await new Promise((r) => setImmediate(r));
    advance(IDEMPOTENCY_LEASE_MS - 1);
    await expect(withIdempotency(deps, params, async () => ({ status: 201, body: 'second' }))).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  });

  test('behavior: after the lease, one retry takes the key over, runs once, and later retries replay its answer', async () => {
    const { deps, advance } = setup();
    void withIdempotency(deps, params, crashed);
    await new Promise((r) => setImmediate(r));
    advance(IDEMPOTENCY_LEASE_MS + 1);
    let runs = 0;
    const retry = () => withIdempotency(deps, params, async () => ({ status: 201, body: { run: ++runs } }));
    expect(await retry()).toEqual({ status: 201, body: { run: 1 }, replayed: false });
    expect(await retry()).toEqual({ status: 201, body: { run: 1 }, replayed: true });
    expect(runs).toBe(1);
  });

  test('behavior: of 5 concurrent retries after the lease, exactly one runs; the others are 409', async () => {
    const { deps, advance } = setup();
    void withIdempotency(deps, params, crashed);
    await new Promise((r) => setImmediate(r));
    advance(IDEMPOTENCY_LEASE_MS + 1);
    let runs = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        withIdempotency(deps, params, async () => {
          runs++;
          await new Promise((r) => setTimeout(r, 5));
          return { status: 201, body: 'ok' };
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && (r.reason as { code: string }).code === 'IDEMPOTENCY_CONFLICT')).toHaveLength(4);
  });

  test('error: a retry with another body after the lease is still 409 (the key belongs to the first request)', async () => {
    const { deps, advance } = setup();
    void withIdempotency(deps, params, crashed);
    await new Promise((r) => setImmediate(r));
    advance(IDEMPOTENCY_LEASE_MS + 1);
    await expect(withIdempotency(deps, { ...params, request: { other: true } }, async () => ({ status: 201, body: 1 }))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });
  });

  test("behavior: a slow first owner that finishes after being taken over cannot overwrite the new owner's answer", async () => {
    const { deps, advance } = setup();
    let release!: () => void;
    const slow = withIdempotency(deps, params, () => new Promise<{ status: number; body: string }>((r) => (release = () => r({ status: 201, body: 'stale' }))));
    await new Promise((r) => setImmediate(r));
    advance(IDEMPOTENCY_LEASE_MS + 1);
    expect((await withIdempotency(deps, params, async () => ({ status: 201, body: 'fresh' }))).body).toBe('fresh');
    release();
    await slow;
    expect(await withIdempotency(deps, params, async () => ({ status: 201, body: 'never' }))).toEqual({ status: 201, body: 'fresh', replayed: true });
  });
});
