/**
 * How long a backtest may hold the event loop before it lets I/O through.
 * A 90-day replay is ~130,000 sample minutes of pure computation (seconds of
 * CPU); run in one go it stalls every request of the instance. Every running
 * backtest takes one slice per turn of the event loop (their pauses all end
 * in the same check phase), so a turn holds at most BACKTEST_LIMITS.perInstance
 * slices of replay: 3 × 5 ms.
 */
export const REPLAY_SLICE_MS = 5;

/** A budget of event-loop time: work checks `spent()` between small units and, when it is, awaits `pause()`. */
export interface Slices {
  /** Whether this slice's time is used up (then `pause()` before the next unit of work). */
  spent(): boolean;
  /** Yields to I/O (setImmediate: after the poll phase, so pending requests and timers run first), then starts a new slice. */
  pause(): Promise<void>;
}

/**
 * Slices of `sliceMs` (Infinity: one slice, never pausing: the replay as it
 * was before slicing, for the bench's baseline and the equality test).
 *
 * Why slices rather than a worker thread: the replay reads the store through
 * the instance's own repositories (memory or MongoDB) and runs the live
 * decision code; a worker would need the samples copied over and its own
 * entry point loadable from both ts-jest and the built dist/. Pausing between
 * sample minutes needs neither, and bounds the stall on every store the same way.
 */
export function createSlices(sliceMs: number = REPLAY_SLICE_MS, now: () => number = () => performance.now()): Slices {
  let started = now();
  return {
    spent: () => now() - started >= sliceMs,
    async pause() {
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = now();
    },
  };
}
