import type { MarketRate } from '../../ports/chain';
import type { Clock, TimerId } from '../../domain/clock';
import { sampleMinute, type RateSample } from '../../domain/rateHistory';
import type { RateHistoryRepo } from '../../ports/store';

/** Sampling interval when YIELD_SAMPLE_INTERVAL_MS is not set: once a minute. */
export const DEFAULT_SAMPLE_INTERVAL_MS = 60_000;

export interface RateSampler {
  /** Takes a sample now, then one every interval until stop(). */
  start(): void;
  /** One sample of every market now: how many were recorded. A failed chain read records nothing and throws. */
  sampleNow(): Promise<number>;
  /** No more samples; resolves once a sample in progress has been written. */
  stop(): Promise<void>;
}

export interface RateSamplerDeps {
  /** The on-chain rates of every market (the chain port's `rates()`, which the yields report reads too). */
  readRates(): Promise<MarketRate[]>;
  rateHistory: Pick<RateHistoryRepo, 'record'>;
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  intervalMs?: number;
  /** A sample that could not be taken (a chain not answering, the store unavailable); the next one is tried on time. */
  onError?(err: unknown): void;
}

/**
 * Samples every market's supply APY on an interval and stores it under its
 * sample minute. The key (market, minute) makes it
 * idempotent: instances sampling the same minute upsert one sample, and a
 * faster interval keeps the latest APY of each minute.
 */
export function createRateSampler(deps: RateSamplerDeps): RateSampler {
  const intervalMs = deps.intervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
  let timer: TimerId | undefined;
  let running = false;
  let inFlight: Promise<unknown> = Promise.resolve();

  async function sampleNow(): Promise<number> {
    const rates = await deps.readRates();
    const at = sampleMinute(deps.clock.now());
    const samples: RateSample[] = rates.map((r) => ({ chain: r.chain, protocol: r.protocol, asset: r.asset, at, apy: r.apy }));
    await deps.rateHistory.record(samples);
    return samples.length;
  }

  function tick(): void {
    timer = undefined;
    if (!running) return;
    const sample = sampleNow().catch((err: unknown) => deps.onError?.(err));
    inFlight = sample;
    void sample.then(() => {
      if (running) timer = deps.clock.setTimeout(tick, intervalMs);
    });
  }

  return {
    start() {
      if (running) return;
      running = true;
      tick();
    },
    sampleNow,
    async stop() {
      running = false;
      if (timer !== undefined) deps.clock.clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}
