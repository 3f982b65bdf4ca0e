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

  test('behavior: the system clock runs and cancels real timers with numeric handles', async () => {
    const clock = createSystemClock();
    const fired: string[] = [];
    const cancelled = clock.setTimeout(() => fired.push('cancelled'), 1);
    clock.clearTimeout(cancelled);
    await new Promise<void>((resolve) => clock.setTimeout(resolve, 5));
    expect(typeof cancelled).toBe('number');
    expect(fired).toEqual([]);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});
