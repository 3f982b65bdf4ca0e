import { SimulatedClock, createSystemClock } from '../../../src/domain/clock';

describe('clocks', () => {
  test('behavior: the simulated clock fires due timers in due-time order when advanced', () => {
    const clock = new SimulatedClock(new Date('2025-01-01T00:00:00.000Z'));
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now().toISOString()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.now().toISOString()}`), 100);
    clock.setTimeout(() => fired.push('c'), 300);
    clock.advance(250);
    expect(fired).toEqual(['a@2025-01-01T00:00:00.100Z', 'b@2025-01-01T00:00:00.200Z']);
    expect(clock.now().toISOString()).toBe('2025-01-01T00:00:00.250Z');
    expect(clock.pendingTimers()).toBe(1);
  });

  test('behavior: timers scheduled while firing run in the same advance when due; cleared timers never run', () => {
    const clock = new SimulatedClock(0);
    const fired: number[] = [];
    const cancelled = clock.setTimeout(() => fired.push(-1), 10);
    clock.setTimeout(() => {
      fired.push(clock.now().getTime());
      clock.setTimeout(() => fired.push(clock.now().getTime()), 30);
    }, 20);
    clock.clearTimeout(cancelled);
    clock.advance(100);
    expect(fired).toEqual([20, 50]);
    expect(clock.pendingTimers()).toBe(0);
  });

  test('behavior: run() lets the work a timer starts settle before time moves on, so the timers it sets fire at their own time', async () => {
    const clock = new SimulatedClock(0);
    const ticks: number[] = [];
    const tick = async (): Promise<void> => {
      await Promise.resolve();
      ticks.push(clock.now().getTime());
      clock.setTimeout(() => void tick(), 10);
    };
    clock.setTimeout(() => void tick(), 10);
    await clock.run(35);
    expect(ticks).toEqual([10, 20, 30]);
    expect(clock.now().getTime()).toBe(35);
    // advance() fires synchronously: the tick due at 40 starts, but its work (and its re-arm) only runs once time stands at 135
    clock.advance(100);
    await clock.run(0);
    expect(ticks).toEqual([10, 20, 30, 135]);
  });

  test('behavior: deferred callbacks wait for turn(); one deferred during a turn waits for the next; the monotonic reading is the simulated time', async () => {
    const clock = new SimulatedClock(1_000);
    const ran: string[] = [];
    clock.defer(() => {
      ran.push('a');
      clock.defer(() => ran.push('c'));
    });
    clock.defer(() => ran.push('b'));
    clock.advance(50);
    expect(ran).toEqual([]);
    expect(await clock.turn()).toBe(2);
    expect(ran).toEqual(['a', 'b']);
    expect(await clock.turn()).toBe(1);
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(clock.monotonicMs()).toBe(1_050);
  });

  test('behavior: the system clock defers to a later turn of the event loop and reads a monotonic time', async () => {
    const clock = createSystemClock();
    const order: string[] = [];
    const before = clock.monotonicMs();
    const done = new Promise<void>((resolve) =>
      clock.defer(() => {
        order.push('deferred');
        resolve();
      }),
    );
    order.push('sync');
    await done;
    expect(order).toEqual(['sync', 'deferred']);
    expect(clock.monotonicMs()).toBeGreaterThanOrEqual(before);
  });

  test('behavior: the system clock runs and cancels real timers with numeric handles', async () => {
    const clock = createSystemClock();
    const fired: string[] = [];
    const cancelled = clock.setTimeout(() => fired.push('cancelled'), 1);
    clock.clearTimeout(cancelled);
    await new Promise<void>((resolve) => clock.setTimeout(resolve, 5));
    // a background timer fires all the same (it only does not keep the process alive)
    await new Promise<void>((resolve) => clock.setTimeout(resolve, 1, { background: true }));
    expect(typeof cancelled).toBe('number');
    expect(fired).toEqual([]);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});
