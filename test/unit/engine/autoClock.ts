import { performance } from 'node:perf_hooks';
import type { Clock, TimerId } from '../../../src/domain/clock';

/**
 * A test clock whose timers fire on the next turn of the event loop while
 * virtual time jumps to their due time: back-off runs instantly, and the
 * requested waits are recorded for assertions. Turns of the event loop
 * (defer) and the monotonic reading are real: the engine's scheduler
 * measures its slices as it does in production.
 */
export class AutoClock implements Clock {
  /** Every delay asked of setTimeout, in order. */
  readonly delays: number[] = [];
  private current: number;
  private nextId = 1;
  private readonly live = new Map<TimerId, NodeJS.Immediate>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimeout(fn: () => void, ms: number): TimerId {
    const id = this.nextId++;
    const due = this.current + Math.max(0, ms);
    this.delays.push(ms);
    this.live.set(
      id,
      setImmediate(() => {
        this.live.delete(id);
        this.current = Math.max(this.current, due);
        fn();
      }),
    );
    return id;
  }

  defer(fn: () => void): void {
    setImmediate(fn);
  }

  monotonicMs(): number {
    return performance.now();
  }

  clearTimeout(id: TimerId): void {
    const handle = this.live.get(id);
    if (handle !== undefined) clearImmediate(handle);
    this.live.delete(id);
  }
}
