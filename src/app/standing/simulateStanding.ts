import type { Clock } from '../../domain/clock';
import type { ChainName } from '../../domain/chains';
import type { RateSample } from '../../domain/rateHistory';
import type { SimulateParams, SimulateResult } from '../../domain/standingIntent';
import type { RateHistoryRepo, RecordedCosts } from '../../ports/store';
import { createReplay, type ReplayMinute } from './backtestReplay';
import { createSlices, REPLAY_TURN_MS, type Slices } from './replaySlices';

export interface SimulateStandingDeps {
  rateHistory: RateHistoryRepo;
  clock: Pick<Clock, 'now'>;
  /** The longest the replay holds the event loop at a time, read at each slice (default REPLAY_TURN_MS; Infinity: never pauses). */
  sliceMs?: number | (() => number);
}

/** What the asker may see: only markets on these chains are replayed (absent: every market recorded). */
export interface SimulateScope {
  chains?: (chain: ChainName) => boolean;
}

const DAY_MS = 86_400_000;
/** The window when the question leaves it open: the last 30 days up to now. */
export const DEFAULT_SIMULATE_WINDOW_MS = 30 * DAY_MS;
/**
 * The history is read two hours at a time: a 90-day replay never holds more
 * than that of samples, and one read stays well inside a slice (the memory
 * store's read of a whole day is 30-90 ms of CPU, copies included; two hours
 * are a few ms). On MongoDB it is 2 round trips per 2 hours of window.
 */
const READ_MS = 2 * 3_600_000;
/** How far before the window the costs in force at its start are looked for. */
const COSTS_LOOKBACK_MS = DAY_MS;

/**
 * The backtest: replays the recorded APY history of the asset's markets in
 * [from, to) minute by minute through the live engine's decision, with the
 * costs recorded at each minute (backtestReplay.ts says how), and answers
 * the moves it made, its earnings against staying in the first market and in
 * today's best, and the chart's series. An empty `from` or `to` is the last
 * 30 days up to now; the front doors check the window. The replay runs in
 * slices (replaySlices.ts): it pauses for I/O whenever it has held the event
 * loop for `sliceMs`, between two sample minutes, which changes nothing of
 * its answer.
 */
export async function simulateStanding(deps: SimulateStandingDeps, params: SimulateParams, scope: SimulateScope = {}): Promise<SimulateResult> {
  const toMs = params.to ? Date.parse(params.to) : deps.clock.now().getTime();
  const fromMs = params.from ? Date.parse(params.from) : toMs - DEFAULT_SIMULATE_WINDOW_MS;
  const replay = createReplay(params, { fromMs, toMs });
  const iso = (ms: number) => new Date(ms).toISOString();
  const slices = createSlices(deps.sliceMs ?? REPLAY_TURN_MS);
  const usable = scope.chains;

  let inForce = await costsInForceAt(deps.rateHistory, fromMs, slices);
  for (let from = fromMs; from < toMs; from += READ_MS) {
    if (slices.spent()) await slices.pause();
    const to = Math.min(from + READ_MS, toMs);
    const [samples, costs] = await Promise.all([
      deps.rateHistory.list({ asset: params.asset, from: iso(from), to: iso(to) }),
      deps.rateHistory.listCosts(iso(from), iso(to)),
    ]);
    for (const minute of minutesOf(usable ? samples.filter((s) => usable(s.chain)) : samples, costs, inForce)) {
      replay.minute(minute);
      if (slices.spent()) await slices.pause();
    }
    inForce = costs.at(-1)?.costs ?? inForce;
  }
  return replay.result();
}

/**
 * The costs in force at `atMs`: the last recorded before it, looked for
 * backwards a read (READ_MS) at a time up to COSTS_LOOKBACK_MS, so that the
 * usual case (costs recorded every minute) reads minutes, not a whole day of
 * cloned records in one turn.
 */
export async function costsInForceAt(rateHistory: RateHistoryRepo, atMs: number, slices: Slices): Promise<RecordedCosts['costs'] | undefined> {
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let to = atMs; to > atMs - COSTS_LOOKBACK_MS; to -= READ_MS) {
    if (slices.spent()) await slices.pause();
    const found = (await rateHistory.listCosts(iso(Math.max(to - READ_MS, atMs - COSTS_LOOKBACK_MS)), iso(to))).at(-1);
    if (found) return found.costs;
  }
  return undefined;
}

/** The samples (ordered by market, then time) as sample minutes in time order, each with the costs in force then. */
function minutesOf(samples: readonly RateSample[], costs: readonly RecordedCosts[], inForce: RecordedCosts['costs'] | undefined): ReplayMinute[] {
  const byMinute = new Map<string, RateSample[]>();
  for (const s of samples) {
    let list = byMinute.get(s.at);
    if (!list) byMinute.set(s.at, (list = []));
    list.push(s);
  }
  const minutes = [...byMinute.keys()].sort();
  let next = 0;
  let current = inForce;
  return minutes.map((at) => {
    while (next < costs.length && costs[next]!.at <= at) current = costs[next++]!.costs;
    return { at, samples: byMinute.get(at)!, costs: current ?? costs[next]?.costs };
  });
}
