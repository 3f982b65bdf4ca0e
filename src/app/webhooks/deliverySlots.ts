import type { ClaimSkip } from '../../ports/store';

/** The worker's attempts in flight, shared fairly: caps per account and per endpoint, turns between accounts. */
export interface DeliverySlotLimits {
  /** Attempts in flight on this instance, all accounts together. */
  total: number;
  /** Attempts in flight for one account: fewer than `total`, so one account never holds every slot. */
  perAccount: number;
  /** Attempts in flight to one endpoint: a slow endpoint holds at most these (its account's other endpoints keep theirs). */
  perEndpoint: number;
}

export interface DeliverySlots {
  /** Whether another attempt may start at all. */
  free(): boolean;
  /**
   * What the next claim passes over: accounts and endpoints at their cap,
   * and, while `turns` is true, accounts already served in this turn (so
   * every account with a due delivery gets one before any gets a second).
   */
  skip(turns: boolean): ClaimSkip;
  /** Whether this turn served anyone (else a claim without turns finds nothing new). */
  turnStarted(): boolean;
  /** A new turn: every account may be served again. */
  nextTurn(): void;
  /** Takes a slot for a claimed delivery; `done` gives it back. */
  take(d: { accountId: string; endpointId: string }): () => void;
  /** Attempts in flight now. */
  readonly size: number;
}

const inc = (m: Map<string, number>, k: string, by: number) => {
  const n = (m.get(k) ?? 0) + by;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};

/**
 * Round-robin over accounts with per-account and per-endpoint caps (this
 * instance's view; each instance shares its own slots the same way). The
 * store still decides which delivery of an account goes first (the one due
 * soonest), so retries keep their schedule.
 */
export function createDeliverySlots(limits: DeliverySlotLimits): DeliverySlots {
  const perAccount = Math.max(1, Math.min(limits.perAccount, limits.total));
  const perEndpoint = Math.max(1, Math.min(limits.perEndpoint, perAccount));
  const accounts = new Map<string, number>();
  const endpoints = new Map<string, number>();
  const served = new Set<string>();
  let size = 0;
  const full = (m: Map<string, number>, cap: number) => [...m].flatMap(([k, n]) => (n >= cap ? [k] : []));

  return {
    free: () => size < limits.total,
    skip(turns) {
      const skipAccounts = full(accounts, perAccount);
      if (turns) for (const a of served) if (!skipAccounts.includes(a)) skipAccounts.push(a);
      return { accounts: skipAccounts, endpoints: full(endpoints, perEndpoint) };
    },
    turnStarted: () => served.size > 0,
    nextTurn: () => served.clear(),
    take(d) {
      size++;
      inc(accounts, d.accountId, 1);
      inc(endpoints, d.endpointId, 1);
      served.add(d.accountId);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        size--;
        inc(accounts, d.accountId, -1);
        inc(endpoints, d.endpointId, -1);
      };
    },
    get size() {
      return size;
    },
  };
}
