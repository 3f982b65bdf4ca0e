/**
 * The opt-in cost-aware choice of a lend's market (docs/decisions.md: the
 * default stays the highest APY). `netReturn` ranks markets by what lending
 * the amount there nets over `horizonDays`: earnings at the market's APY
 * less the route fees and the gas of every step.
 */
export const OPTIMIZE_GOALS = ['netReturn'] as const;
export type OptimizeGoal = (typeof OPTIMIZE_GOALS)[number];

/** Horizon of the net-return ranking when none is given, in days. */
export const DEFAULT_HORIZON_DAYS = 30;
/** Longest horizon accepted, in days (ten years). */
export const MAX_HORIZON_DAYS = 3650;

/** What a lend intent records of its opt-in ranking, beside the fields of the Intent record. */
export interface LendOptimization {
  optimize?: OptimizeGoal;
  /** Days the net-return ranking counts earnings over (DEFAULT_HORIZON_DAYS when absent). */
  horizonDays?: number;
}

/** The ranking an intent (or a request) asked for: null without `optimize`. */
export function optimizationOf(record: LendOptimization): { optimize: OptimizeGoal; horizonDays: number } | null {
  if (record.optimize === undefined) return null;
  return { optimize: record.optimize, horizonDays: record.horizonDays ?? DEFAULT_HORIZON_DAYS };
}
