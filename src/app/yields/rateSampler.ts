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
  /**
   * One sample of every market now: how many were recorded. A failed chain
   * read records nothing and throws. `at` records it under that instant's
   * minute instead of now's (a sandbox tool: the rates are read now whatever
   * minute they are filed under). onSample is told and not waited for.
   */
  sampleNow(at?: Date): Promise<number>;
  /**
   * As sampleNow, and resolves once onSample has finished with the sample (a
   * rejection of it is reported to onError, as on the interval): what a
   * caller that wants the sample's consequences, not only the sample, waits for.
   */
  sampleAndSettle(at?: Date): Promise<SampleTaken>;
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

  /** Reads and stores one sample; `told` settles once onSample has finished with it. */
  async function take(at: Date | undefined): Promise<{ taken: SampleTaken; told: Promise<void> }> {
    const [rates, costs] = await Promise.all([deps.readRates(), readCosts()]);
    const minute = sampleMinute(at ?? deps.clock.now());
    const samples: RateSample[] = rates.map((r) => ({ chain: r.chain, protocol: r.protocol, asset: r.asset, token: r.token, at: minute, apy: r.apy }));
    await deps.rateHistory.record(samples);
    if (costs) await deps.rateHistory.recordCosts(minute, costs);
    const taken: SampleTaken = { at: minute, samples, costs: costs ?? { gasUsdPerUnit: {}, routeFeeBps: {} } };
    const onSample = deps.onSample;
    const told = onSample
      ? Promise.resolve()
          .then(() => onSample(taken))
          .catch((err: unknown) => deps.onError?.(err))
      : Promise.resolve();
    return { taken, told };
  }

  async function sampleNow(at?: Date): Promise<number> {
    const { taken } = await take(at);
    return taken.samples.length;
  }

  async function sampleAndSettle(at?: Date): Promise<SampleTaken> {
    const { taken, told } = await take(at);
    await told;
    return taken;
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
    sampleAndSettle,
    async stop() {
      running = false;
      if (timer !== undefined) deps.clock.clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}
