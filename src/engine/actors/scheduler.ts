import type { Clock } from '../../domain/clock';

/**
 * Turns of the event loop shared by every actor of an engine: a budgeted,
 * first-come first-served run queue. Work that asks `pass()` runs at once
 * while the current slice of the event loop has budget left; beyond it, the
 * caller waits its turn in one FIFO queue, let through one at a time by
 * tickets deferred to later turns (the clock's `defer`), each only when the
 * new slice has budget left. Whatever is let through runs to its next wait (I/O or another
 * `pass()`) before the next ticket, so no turn of the event loop runs much
 * longer than the budget however many actors are busy, other callbacks
 * (HTTP requests, timers) get the loop between slices, and every actor waits
 * behind the others in arrival order (a wallet with many intents cannot
 * starve the rest).
 *
 * A slice opens at the first `pass()` or ticket after the last one closed
 * and closes at the next turn of the event loop (one `defer`). Slices are
 * measured on the clock's monotonic reading.
 */
export interface Scheduler {
  /** null: go on now; else a promise that resolves at the caller's turn. */
  pass(): Promise<void> | null;
  /** Callers waiting for a turn. */
  waiting(): number;
}

export interface SchedulerOptions {
  /** Measures slices (`monotonicMs`) and hands out later turns (`defer`). */
  clock: Pick<Clock, 'monotonicMs' | 'defer'>;
  /** CPU time a slice may take before callers wait for a later turn, ms; default 4. */
  budgetMs?: number;
  /** Tickets in flight at most, so at most this many callers are let through per turn; default 64. */
  lanes?: number;
}

export function createScheduler(o: SchedulerOptions): Scheduler {
  const budget = o.budgetMs ?? 4;
  const lanes = Math.max(1, o.lanes ?? 64);
  const now = (): number => o.clock.monotonicMs();
  const defer = (fn: () => void): void => o.clock.defer(fn);
  let queue: ((() => void) | undefined)[] = [];
  let head = 0;
  let sliceStart = -1;
  let closing = false;
  let tickets = 0;

  const waiting = (): number => queue.length - head;
  const close = (): void => {
    closing = false;
    sliceStart = -1;
  };
  const open = (t: number): void => {
    sliceStart = t;
    if (!closing) {
      closing = true;
      defer(close);
    }
  };
  const refill = (): void => {
    while (tickets < Math.min(lanes, waiting())) {
      tickets++;
      defer(ticket);
    }
  };

  /** Lets the first waiter through when the slice has budget left; then keeps a ticket per waiter (up to `lanes`) for later turns. */
  function ticket(): void {
    tickets--;
    if (waiting() > 0) {
      const t = now();
      if (sliceStart < 0) open(t);
      if (t - sliceStart < budget) {
        const resolve = queue[head]!;
        queue[head++] = undefined;
        if (head > 1024 && head * 2 > queue.length) {
          queue = queue.slice(head);
          head = 0;
        }
        resolve();
      }
    }
    refill();
  }

  function pass(): Promise<void> | null {
    if (waiting() === 0) {
      const t = now();
      if (sliceStart < 0) {
        open(t);
        return null;
      }
      if (t - sliceStart < budget) return null;
    }
    return new Promise<void>((resolve) => {
      queue.push(resolve);
      refill();
    });
  }

  return { pass, waiting };
}
