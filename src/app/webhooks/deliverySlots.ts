import type { ClaimSkip } from '../../ports/store';

/** The worker's attempts in flight, shared fairly: caps per account and per endpoint, turns between accounts, slots kept for newcomers. */
export interface DeliverySlotLimits {
  /** Attempts in flight on this instance, all accounts together. */
  total: number;
  /** Attempts in flight for one account: fewer than `total`, so one account never holds every slot. */
  perAccount: number;
  /** Attempts in flight to one endpoint: a slow endpoint holds at most these (its account's other endpoints keep theirs). */
  perEndpoint: number;
  /**
   * Free slots an account that already has an attempt in flight may not take:
   * they are kept for accounts with none, so that one more account starts at
   * once however many others hang (default a quarter of `total`, at least 1).
   */
  reserve?: number;
}

export interface DeliverySlots {
  /** Whether another attempt may start at all. */
  free(): boolean;
  /**
   * What the next claim passes over, in the order to try: first every account
   * with an attempt in flight (so an idle account goes first, whoever else
   * waits longer), then, while more slots are free than the reserve, only the
   * accounts and endpoints at their cap. Both pass over accounts already served
   * in this turn (every account with a due delivery gets one before any gets a
   * second).
   */
  claimOrder(): ClaimSkip[];
  /** Whether this turn served anyone (else a claim in a new turn finds nothing new). */
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
 * A fair queue over accounts (this instance's view; each instance shares its
 * own slots the same way): an account with nothing in flight is served first,
 * accounts take turns, each holds at most `perAccount` and each endpoint
 * `perEndpoint`, and the last `reserve` free slots go only to accounts with
 * nothing in flight. So however many accounts' endpoints hang, one more
 * account starts at once while fewer than `total - reserve` of them hold
 * slots, and otherwise takes the first slot that frees (within one delivery
 * timeout). The store still decides which delivery of an account goes first
 * (the one due soonest), so retries keep their schedule.
 */
export function createDeliverySlots(limits: DeliverySlotLimits): DeliverySlots {
  const perAccount = Math.max(1, Math.min(limits.perAccount, limits.total));
  const perEndpoint = Math.max(1, Math.min(limits.perEndpoint, perAccount));
  const reserve = Math.max(0, Math.min(limits.reserve ?? Math.max(1, Math.floor(limits.total / 4)), limits.total - 1));
  const accounts = new Map<string, number>();
  const endpoints = new Map<string, number>();
  const served = new Set<string>();
  let size = 0;
  const full = (m: Map<string, number>, cap: number) => [...m].flatMap(([k, n]) => (n >= cap ? [k] : []));
  const withServed = (skip: string[]) => [...new Set([...skip, ...served])];

  return {
    free: () => size < limits.total,
    claimOrder() {
      const fullEndpoints = full(endpoints, perEndpoint);
      const order: ClaimSkip[] = [{ accounts: withServed([...accounts.keys()]), endpoints: fullEndpoints }];
      // with nobody in flight the first claim already covers every account
      if (accounts.size > 0 && limits.total - size > reserve) order.push({ accounts: withServed(full(accounts, perAccount)), endpoints: fullEndpoints });
      return order;
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
