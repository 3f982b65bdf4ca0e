/** Small helpers shared by the engine benchmarks: percentiles, an RSS sampler, a forced GC between phases. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The `p`-th percentile of ascending `sorted` (nearest rank, as bench/chainReads.ts). */
export function pct(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** p50 / p99 / max of `samples` (ms). */
export function summary(samples: readonly number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

export const MiB = 1024 * 1024;

/** Samples process.memoryUsage().rss every `everyMs` until stopped; keeps the peak. */
export class RssSampler {
  readonly startRss: number;
  private peakRss: number;
  private samples = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 50) {
    this.startRss = process.memoryUsage().rss;
    this.peakRss = this.startRss;
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    this.samples++;
    const rss = process.memoryUsage().rss;
    if (rss > this.peakRss) this.peakRss = rss;
  }

  /** Takes a last sample and stops the timer. */
  stop(): { startMiB: number; peakMiB: number; samples: number } {
    this.sample();
    clearInterval(this.timer);
    return { startMiB: this.startRss / MiB, peakMiB: this.peakRss / MiB, samples: this.samples };
  }
}

let gcFn: (() => void) | undefined;

/** A full GC, so each phase starts from a comparable heap (works without --expose-gc). */
export function forceGc(): void {
  if (gcFn === undefined) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}

/** ms with 2 decimals, thousands separated. */
export const ms = (n: number): string => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A whole number, thousands separated. */
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');
