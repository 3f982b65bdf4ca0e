/**
 * Time as a port: everything that reads the time or waits takes a Clock, so
 * timeouts, idle windows and back-off are testable without sleeping.
 */
import { performance } from 'node:perf_hooks';

/** Handle of a scheduled timer. */
export type TimerId = number;

/** How a timer is kept. */
export interface TimerOptions {
  /**
   * The timer alone does not keep the process alive (Node's `unref`): for
   * background upkeep (lease renewals, log polling) that its owner's stop()
   * ends anyway.
   */
  background?: boolean;
}

/** The clock port: current time, cancellable timers and turns of the event loop. */
export interface Clock {
  now(): Date;
  setTimeout(fn: () => void, ms: number, options?: TimerOptions): TimerId;
  clearTimeout(id: TimerId): void;
  /** Runs `fn` in a later turn of the event loop, once pending I/O callbacks have had theirs (Node's `setImmediate`). */
  defer(fn: () => void): void;
  /**
   * A reading in ms that only moves forward, with sub-millisecond resolution
   * (Node's `performance.now`): for measuring short spans of work, never a
   * date (its origin is arbitrary).
   */
  monotonicMs(): number;
}

// Taken at load: fake timers a test installs later do not stall the turns handed out with defer().
const realSetImmediate = setImmediate;

/** The real clock: wall time and Node timers (handles are plain numbers so they stay serialisable). */
export function createSystemClock(): Clock {
  const timers = new Map<TimerId, NodeJS.Timeout>();
  let nextId = 1;
  return {
    now: () => new Date(),
    setTimeout(fn, ms, options) {
      const id = nextId++;
      const handle = setTimeout(() => {
        timers.delete(id);
        fn();
      }, ms);
      if (options?.background) handle.unref();
      timers.set(id, handle);
      return id;
    },
    clearTimeout(id) {
      const handle = timers.get(id);
      if (handle === undefined) return;
      clearTimeout(handle);
      timers.delete(id);
    },
    defer: (fn) => void realSetImmediate(fn),
    monotonicMs: () => performance.now(),
  };
}

interface ScheduledTimer {
  id: TimerId;
  at: number;
  fn: () => void;
}

/** Lets every promise continuation queued so far run (one real check phase; microtasks drain before it). */
const settle = (): Promise<void> => new Promise((resolve) => realSetImmediate(resolve));

/**
 * A clock that only moves when told to (`advance`, `set`, `run`); due timers
 * run synchronously, earliest first. Deferred callbacks wait for `turn()`.
 * Its monotonic reading is its time.
 */
export class SimulatedClock implements Clock {
  private current: number;
  private timers: ScheduledTimer[] = [];
  private deferred: (() => void)[] = [];
  private nextId = 1;

  constructor(start: Date | number = 0) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  monotonicMs(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerId {
    const id = this.nextId++;
    this.timers.push({ id, at: this.current + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(id: TimerId): void {
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  defer(fn: () => void): void {
    this.deferred.push(fn);
  }

  /** Number of timers not yet fired. */
  pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due (including ones scheduled while firing). */
  advance(ms: number): void {
    this.set(this.current + ms);
  }

  /** Moves time to `to` (never backwards), firing due timers in due-time then scheduling order. */
  set(to: Date | number): void {
    const target = typeof to === 'number' ? to : to.getTime();
    for (let due = this.nextDue(target); due !== undefined; due = this.nextDue(target)) this.fire(due);
    this.current = Math.max(this.current, target);
  }

  /**
   * Moves time forward by `ms` as `advance` does, but lets the promise
   * continuations of each fired timer run before the next one is looked
   * for: asynchronous work a timer starts (a store call, then the timer it
   * sets again) happens at its own time, as it would under real timers.
   */
  async run(ms: number): Promise<void> {
    const target = this.current + ms;
    await settle();
    for (let due = this.nextDue(target); due !== undefined; due = this.nextDue(target)) {
      this.fire(due);
      await settle();
    }
    this.current = Math.max(this.current, target);
  }

  /**
   * One turn of the event loop: runs the callbacks deferred so far, in
   * order, letting promise continuations run after each (as Node does
   * between `setImmediate` callbacks); callbacks deferred meanwhile wait for
   * the next turn. Resolves with how many ran.
   */
  async turn(): Promise<number> {
    const due = this.deferred;
    this.deferred = [];
    for (const fn of due) {
      fn();
      await settle();
    }
    return due.length;
  }

  private nextDue(target: number): ScheduledTimer | undefined {
    return this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
  }

  private fire(timer: ScheduledTimer): void {
    this.timers = this.timers.filter((t) => t !== timer);
    this.current = Math.max(this.current, timer.at);
    timer.fn();
  }
}

/**
 * `base` telling the time of `now` instead (a database server's time: `base`'s
 * corrected by the server's offset), its timers, turns and monotonic reading
 * unchanged: still one clock, read against the time every instance shares.
 */
export function withTimeOf(base: Clock, now: () => Date): Clock {
  return {
    now,
    setTimeout: (fn, ms, options) => base.setTimeout(fn, ms, options),
    clearTimeout: (id) => base.clearTimeout(id),
    defer: (fn) => base.defer(fn),
    monotonicMs: () => base.monotonicMs(),
  };
}
