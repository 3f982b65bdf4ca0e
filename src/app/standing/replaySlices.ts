/**
 * How long the backtests of an instance together may hold the event loop in
 * one turn. A 90-day replay is ~130,000 sample minutes of pure computation
 * (seconds of CPU); run in one go it stalls every request of the instance.
 * Every running backtest takes one slice per turn of the event loop (their
 * pauses all end in the same check phase), so each one's slice is this
 * divided by how many run (turnSlice).
 */
export const REPLAY_TURN_MS = 10;

/** A backtest's slice when `running` backtests share a turn of REPLAY_TURN_MS. */
export const turnSlice = (running: number): number => REPLAY_TURN_MS / Math.max(1, running);

/** A budget of event-loop time: work checks `spent()` between small units and, when it is, awaits `pause()`. */
export interface Slices {
  /** Whether this slice's time is used up (then `pause()` before the next unit of work). */
  spent(): boolean;
  /** Yields to I/O (setImmediate: after the poll phase, so pending requests and timers run first), then starts a new slice. */
  pause(): Promise<void>;
}

/**
 * Slices of `sliceMs`, read again at each slice (the number of backtests
 * sharing the turn changes while one runs); Infinity: one slice, never
 * pausing: the replay as it was before slicing, for the bench's baseline and
 * the equality test.
 *
 * Why slices rather than a worker thread: the replay reads the store through
 * the instance's own repositories (memory or MongoDB) and runs the live
 * decision code; a worker would need the samples copied over and its own
 * entry point loadable from both ts-jest and the built dist/. Pausing between
 * sample minutes needs neither, and bounds the stall on every store the same way.
 */
export function createSlices(sliceMs: number | (() => number) = REPLAY_TURN_MS, now: () => number = () => performance.now()): Slices {
  const length = typeof sliceMs === 'number' ? () => sliceMs : sliceMs;
  let started = now();
  let budget = length();
  return {
    spent: () => now() - started >= budget,
    async pause() {
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = now();
      budget = length();
    },
  };
}
