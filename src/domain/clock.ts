/**
 * Time as a port: everything that reads the time or waits takes a Clock, so
 * timeouts, idle windows and back-off are testable without sleeping.
 */
/** Handle of a scheduled timer. */
export type TimerId = number;

/** The clock port: current time and cancellable timers. */
export interface Clock {
  now(): Date;
  setTimeout(fn: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
}

/** The real clock: wall time and Node timers (handles are plain numbers so they stay serialisable). */
export function createSystemClock(): Clock {
  const timers = new Map<TimerId, NodeJS.Timeout>();
  let nextId = 1;
  return {
    now: () => new Date(),
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          fn();
        }, ms),
      );
      return id;
    },
    clearTimeout(id) {
      const handle = timers.get(id);
      if (handle === undefined) return;
      clearTimeout(handle);
      timers.delete(id);
    },
  };
}

interface ScheduledTimer {
  id: TimerId;
  at: number;
  fn: () => void;
}

/** A clock that only moves when told to (`advance`, `set`); due timers run synchronously, earliest first. */
export class SimulatedClock implements Clock {
  private current: number;
  private timers: ScheduledTimer[] = [];
  private nextId = 1;

  constructor(start: Date | number = 0) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimeout(fn: () => void, ms: number): TimerId {
    const id = this.nextId++;
    this.timers.push({ id, at: this.current + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(id: TimerId): void {
    this.timers = this.timers.filter((t) => t.id !== id);
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
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = Math.max(this.current, target);
  }
}
