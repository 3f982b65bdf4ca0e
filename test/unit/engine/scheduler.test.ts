import { createScheduler } from '../../../src/engine/actors/scheduler';
import { Mailbox } from '../../../src/engine/actors/mailbox';
import { SimulatedClock } from '../../../src/domain/clock';

/** A scheduler on a simulated clock: time moves by hand, and deferred tickets run only at the turn the test asks for. */
function manual(o: { budgetMs?: number; lanes?: number } = {}) {
  const clock = new SimulatedClock(0);
  return {
    scheduler: createScheduler({ ...o, clock }),
    advance: (ms: number) => clock.advance(ms),
    /** Runs the callbacks deferred so far (a check phase); callbacks deferred meanwhile wait for the next turn. */
    turn: () => clock.turn(),
  };
}

describe('scheduler', () => {
  test('behavior: within the budget pass() lets the caller go on at once; beyond it, callers wait in arrival order', async () => {
    const m = manual({ budgetMs: 4 });
    expect(m.scheduler.pass()).toBeNull();
    m.advance(3);
    expect(m.scheduler.pass()).toBeNull();
    m.advance(2);
    const order: string[] = [];
    const waits = ['a', 'b', 'c'].map((name) => m.scheduler.pass()!.then(() => order.push(name)));
    expect(waits).toHaveLength(3);
    expect(m.scheduler.waiting()).toBe(3);
    // while some wait, a newcomer queues behind them even with budget left
    m.advance(0);
    const late = m.scheduler.pass();
    expect(late).not.toBeNull();
    void late!.then(() => order.push('late'));
    await m.turn(); // closes the slice; the tickets let the waiters through in a new one
    for (let n = 0; n < 5 && order.length < 4; n++) await m.turn();
    expect(order).toEqual(['a', 'b', 'c', 'late']);
    expect(m.scheduler.waiting()).toBe(0);
  });

  test('behavior: a turn lets waiters through only while its slice has budget; the rest wait for later turns', async () => {
    const m = manual({ budgetMs: 4, lanes: 64 });
    m.scheduler.pass();
    m.advance(10); // the slice is spent
    const done: number[] = [];
    for (let n = 0; n < 10; n++) {
      void m.scheduler.pass()!.then(() => {
        done.push(n);
        m.advance(1); // each unit of work takes 1 ms
      });
    }
    await m.turn(); // the slice closes
    const perTurn: number[] = [];
    while (done.length < 10 && perTurn.length < 20) {
      const before = done.length;
      await m.turn();
      perTurn.push(done.length - before);
    }
    expect(done).toEqual([...Array(10).keys()]);
    // 4 ms of budget per slice, 1 ms per unit: never more than 4 (+1 begun within budget) in one turn
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(5);
    expect(perTurn.filter((k) => k > 0).length).toBeGreaterThan(1);
  });

  test('behavior: at most `lanes` callers are let through in one turn', async () => {
    const m = manual({ budgetMs: 1_000, lanes: 2 });
    m.scheduler.pass();
    m.advance(2_000);
    const done: number[] = [];
    for (let n = 0; n < 6; n++) void m.scheduler.pass()!.then(() => done.push(n));
    const perTurn: number[] = [];
    while (done.length < 6 && perTurn.length < 20) {
      const before = done.length;
      await m.turn();
      perTurn.push(done.length - before);
    }
    expect(done).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(2);
  });

  test('behavior: two mailboxes sharing a gate take turns, message by message, in arrival order', async () => {
    const m = manual({ budgetMs: 4 });
    const log: string[] = [];
    const work = (name: string) => (msg: number) => {
      log.push(`${name}${msg}`);
      m.advance(4); // every message spends a whole slice
    };
    const a = new Mailbox<number>(work('a'), () => undefined, m.scheduler);
    const b = new Mailbox<number>(work('b'), () => undefined, m.scheduler);
    for (let n = 1; n <= 3; n++) a.enqueue(n);
    for (let n = 1; n <= 3; n++) b.enqueue(n);
    for (let n = 0; n < 30 && log.length < 6; n++) {
      await Promise.resolve();
      await m.turn();
    }
    expect(log).toHaveLength(6);
    // no mailbox runs its whole queue while the other waits
    expect(log.slice(0, 4)).toEqual(expect.arrayContaining(['a1', 'b1']));
    expect(log.filter((x) => x.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(log.filter((x) => x.startsWith('b'))).toEqual(['b1', 'b2', 'b3']);
  });
});
