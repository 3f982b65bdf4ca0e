import { backtestLimitExceeded } from '../../domain/errors/standing';

/**
 * Backtests one instance runs at once: one per account (a second is refused
 * until the first is done), and a few in all. They share the event loop's
 * turns (replaySlices.ts), so each one admitted lengthens the others' wall
 * time: three at once is the load the service is measured for (BENCHMARKS.md,
 * "Backtests and the event loop").
 */
export const BACKTEST_LIMITS = { perAccount: 1, perInstance: 3 } as const;

/** Retry-After of a refused backtest: about what a 90-day backtest takes while others run. */
export const BACKTEST_RETRY_AFTER_SECONDS = 5;

/** The instance's backtests running now; the composition root makes one per instance. */
export interface BacktestSlots {
  /** A slot for one of `accountId`'s backtests, or 429 BACKTEST_LIMIT_EXCEEDED (`details.scope` account or instance); call the answer once it is done. */
  take(accountId: string): () => void;
  /** Backtests running now. */
  readonly running: number;
}

export function createBacktestSlots(limits: { perAccount: number; perInstance: number } = BACKTEST_LIMITS): BacktestSlots {
  const byAccount = new Map<string, number>();
  let running = 0;
  return {
    take(accountId) {
      const mine = byAccount.get(accountId) ?? 0;
      if (mine >= limits.perAccount) throw backtestLimitExceeded('account', limits.perAccount, BACKTEST_RETRY_AFTER_SECONDS);
      if (running >= limits.perInstance) throw backtestLimitExceeded('instance', limits.perInstance, BACKTEST_RETRY_AFTER_SECONDS);
      byAccount.set(accountId, mine + 1);
      running += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running -= 1;
        const left = (byAccount.get(accountId) ?? 1) - 1;
        if (left > 0) byAccount.set(accountId, left);
        else byAccount.delete(accountId);
      };
    },
    get running() {
      return running;
    },
  };
}
