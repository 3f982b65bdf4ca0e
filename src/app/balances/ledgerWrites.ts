/**
 * The position ledger's writes still in flight, per wallet, on this instance.
 * An entry now waits for two chain reads (the step's receipt and the market's
 * index at its block) before it is written, so a client that reads balances
 * the moment its intent completes would find no entry yet and see
 * `principal: null`. Readers of the ledger wait here first: a wallet with no
 * write in flight costs nothing; one with writes waits for them, at most
 * `maxWaitMs` (a write that hangs on a chain read must not hold the read).
 */
export interface LedgerWrites {
  track(walletId: string, write: Promise<unknown>): void;
  settled(walletId: string): Promise<void>;
}

export function createLedgerWrites(maxWaitMs = 2_000): LedgerWrites {
  const inFlight = new Map<string, Set<Promise<unknown>>>();
  return {
    track(walletId, write) {
      let set = inFlight.get(walletId);
      if (!set) inFlight.set(walletId, (set = new Set()));
      set.add(write);
      const done = () => {
        set.delete(write);
        if (set.size === 0 && inFlight.get(walletId) === set) inFlight.delete(walletId);
      };
      write.then(done, done);
    },
    async settled(walletId) {
      const set = inFlight.get(walletId);
      if (!set || set.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)));
      try {
        await Promise.race([Promise.allSettled([...set]).then(() => undefined), cap]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
