import type { MarketRate } from '../../ports/chain';
import type { Clock, TimerId } from '../../domain/clock';
import { sampleMinute, type RateSample } from '../../domain/rateHistory';
import type { SampleCosts } from '../../domain/standingIntent';
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
  /** What a move costs now (readSampleCosts over the chain port), recorded with each sample; absent: no costs are recorded. */
  readCosts?(): Promise<SampleCosts>;
  rateHistory: Pick<RateHistoryRepo, 'record' | 'recordCosts'>;
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  intervalMs?: number;
  /** A sample that could not be taken (a chain not answering, the store unavailable); the next one is tried on time. */
  onError?(err: unknown): void;
  /**
   * Told of every sample once it is stored, with the costs recorded beside it
   * (no costs at all when they could not be read: nothing is priced, so
   * nothing moves on them). It is not waited for: the next sample is taken
   * on time. A throw or a rejection is reported to onError; the sample stands.
   */
  onSample?(sample: SampleTaken): void | Promise<void>;
}

/** One sample minute as stored: every market's APY and what a move cost. */
export interface SampleTaken {
  at: string;
  samples: RateSample[];
  costs: SampleCosts;
}

/**
 * Samples every market's supply APY on an interval and stores it under its
 * sample minute, with what a move cost then. The key (market, token, minute)
 * makes it idempotent: instances sampling the same minute upsert one sample,
 * and a faster interval keeps the latest APY (and costs) of each minute.
 * Costs that cannot be read do not hold the APYs back: they are reported and
 * the minute has none.
 */
export function createRateSampler(deps: RateSamplerDeps): RateSampler {
  const intervalMs = deps.intervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
  let timer: TimerId | undefined;
  let running = false;
  let inFlight: Promise<unknown> = Promise.resolve();

  async function readCosts(): Promise<SampleCosts | undefined> {
    if (!deps.readCosts) return undefined;
    try {
      return await deps.readCosts();
    } catch (err) {
      deps.onError?.(err);
      return undefined;
    }
  }

  async function sampleNow(): Promise<number> {
    const [rates, costs] = await Promise.all([deps.readRates(), readCosts()]);
    const at = sampleMinute(deps.clock.now());
    const samples: RateSample[] = rates.map((r) => ({ chain: r.chain, protocol: r.protocol, asset: r.asset, token: r.token, at, apy: r.apy }));
    await deps.rateHistory.record(samples);
    if (costs) await deps.rateHistory.recordCosts(at, costs);
    if (deps.onSample) {
      const onSample = deps.onSample;
      void Promise.resolve()
        .then(() => onSample({ at, samples, costs: costs ?? { gasUsdPerUnit: {}, routeFeeBps: {} } }))
        .catch((err: unknown) => deps.onError?.(err));
    }
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
