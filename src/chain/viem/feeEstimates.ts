import type { ChainName } from '../../domain/chains';
import type { ChainAccess } from './chainAccess';

/** EIP-1559 fee caps, as viem's estimateFeesPerGas answers them. */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface FeeEstimateOptions {
  /** An estimate older than this is refreshed in the background, the held one answering meanwhile. */
  refreshMs: number;
  /** An estimate older than this is never used: the caller waits for a fresh one. */
  maxAgeMs: number;
  now?: () => number;
}

/**
 * Per-chain fee estimates kept fresh beside the sends, so signing does not
 * wait for eth_getBlockByNumber and then eth_maxPriorityFeePerGas (two round
 * trips in a row) on every transaction. An estimate answers for at most
 * `maxAgeMs`: viem's caps carry 20 % over the base fee, which covers a block
 * or so of rising base fee; a transaction still underpriced after that is
 * the replacement's (ChainPort.replace re-reads the fees, never from here).
 */
export interface FeeEstimates {
  /** The chain's fee caps: the held estimate while young enough, else a fresh one (one read in flight per chain). */
  get(chain: ChainName): Promise<Fees>;
  /** Starts a refresh unless the held estimate is still young or one is in flight (a chain about to be sent on). */
  warm(chain: ChainName): void;
  clear(): void;
}

interface Held {
  fees: Fees;
  at: number;
}

export function createFeeEstimates(access: ChainAccess, o: FeeEstimateOptions): FeeEstimates {
  const now = o.now ?? Date.now;
  const held = new Map<ChainName, Held>();
  const inFlight = new Map<ChainName, { fees: Promise<Fees>; background: boolean }>();

  /**
   * One read per chain at a time. A read in the background goes around the
   * sandbox's injected transport faults: those are meant for the port's
   * operations, and a refresh nobody waits for must not swallow one. A caller
   * joining a background read that fails reads again through the faults, so
   * it sees the node's error as every operation does.
   */
  const refresh = (chain: ChainName, background: boolean): Promise<Fees> => {
    const running = inFlight.get(chain);
    if (running) return running.background && !background ? running.fees.catch(() => refresh(chain, false)) : running.fees;
    const startedAt = now();
    const read = background ? access.client(chain).client.estimateFeesPerGas() : access.call(chain, (x) => x.client.estimateFeesPerGas());
    const fees = read
      .then((f) => {
        const fees = { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
        // aged from when the read started: the block it priced is at least that old
        held.set(chain, { fees, at: startedAt });
        return fees;
      })
      .finally(() => inFlight.delete(chain));
    inFlight.set(chain, { fees, background });
    return fees;
  };

  const age = (chain: ChainName): number => {
    const h = held.get(chain);
    return h === undefined ? Infinity : now() - h.at;
  };

  return {
    async get(chain) {
      const a = age(chain);
      if (a >= o.maxAgeMs) return refresh(chain, false);
      if (a >= o.refreshMs) refresh(chain, true).catch(() => undefined);
      return held.get(chain)!.fees;
    },
    warm(chain) {
      if (access.has(chain) && age(chain) >= o.refreshMs) refresh(chain, true).catch(() => undefined);
    },
    clear() {
      held.clear();
    },
  };
}
