import type { Address, Hex, LocalAccount } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { Clock } from '../../domain/clock';
import { networkError } from '../../domain/errors/chain';
import type { NonceRepo } from '../../ports/store';
import { broadcast } from './broadcast';
import type { ChainAccess } from './chainAccess';
import { KeyedMutex } from './keyedMutex';
import { nonceTaken } from './nodeErrors';
import { nonceKey, takeNonce, type HeldNonce } from './sharedNonces';

/** Tries at sending one transaction when its nonce keeps being taken by another sender of the same account. */
const NONCE_ATTEMPTS = 6;

/** How often a sender waiting for the nonces below its own (taken by another instance) reads the chain's pending nonce. */
const NONCE_WAIT_POLL_MS = 50;

export interface NonceSenderOptions {
  access: ChainAccess;
  /** The store's nonce allocator, when it answers (ViemChainPortOptions.nonces). */
  nonces?: () => NonceRepo | undefined;
  gapMs: number;
  pollMs: number;
  /** The service's clock: the waits of a sender tell time by it. */
  clock: Pick<Clock, 'now' | 'setTimeout'>;
  onNonceRetry?: (chain: ChainName, address: Address) => void;
}

/**
 * Sends one transaction of `account` under its per-chain lock (this
 * process's order): `prepare` reads what signing needs and may refuse
 * before a nonce is taken; `sign` signs with the nonce (and persists).
 * A nonce another sender used first is signed again with a fresh one; one
 * refused for another reason is given back. Resolves with what was sent.
 */
export type NonceSender = <P, S extends { raw: Hex }>(
  chain: ChainName,
  account: LocalAccount,
  prepare: () => Promise<P>,
  sign: (nonce: number, prepared: P) => Promise<S>,
) => Promise<S>;

/**
 * Whether a send refused for a taken nonce should be tried again: a short, growing,
 * jittered pause first, so two instances draining their queues on one shared account
 * (the gas tank) stop reading the same pending nonce in lockstep.
 */
async function retryTakenNonce(clock: Pick<Clock, 'setTimeout'>, e: unknown, attempt: number): Promise<boolean> {
  if (attempt >= NONCE_ATTEMPTS || !nonceTaken(e)) return false;
  await new Promise<void>((r) => clock.setTimeout(r, Math.random() * 25 * attempt));
  return true;
}

export function createNonceSender(o: NonceSenderOptions): NonceSender {
  const { access } = o;
  const locks = new KeyedMutex();
  const pendingNonce = (chain: ChainName, address: Address): Promise<number> =>
    access.call(chain, (x) => x.client.getTransactionCount({ address, blockTag: 'pending' }));

  /**
   * The nonce a transaction of `account` signs with: from the store's
   * allocator when there is one, so instances sharing the database never sign
   * two transactions with one nonce: the gas tank (also the relayer) and the
   * faucet are shared by every instance, and a wallet's intents may run on
   * two instances at once (two requests through a load balancer). Without an
   * allocator, the node's pending nonce. Null when another sender used it meanwhile.
   */
  async function nextNonce(chain: ChainName, account: LocalAccount, pending: number): Promise<HeldNonce | null> {
    const repo = o.nonces?.();
    if (repo === undefined) return { nonce: pending, release: async () => undefined };
    const key = nonceKey(access.client(chain).chain.id, account.address);
    return takeNonce({
      repo,
      key,
      pending,
      readPending: () => pendingNonce(chain, account.address),
      gapMs: o.gapMs,
      pollMs: Math.min(o.pollMs, NONCE_WAIT_POLL_MS),
      clock: o.clock,
    });
  }

  return async function sendWithNonce<P, S extends { raw: Hex }>(
    chain: ChainName,
    account: LocalAccount,
    prepare: () => Promise<P>,
    sign: (nonce: number, prepared: P) => Promise<S>,
  ): Promise<S> {
    return locks.run(`${chain}:${account.address}`, async () => {
      for (let attempt = 1; ; attempt++) {
        const [pending, prepared] = await Promise.all([pendingNonce(chain, account.address), prepare()]);
        const held = await nextNonce(chain, account, pending);
        let failure: unknown;
        if (held === null) {
          failure = networkError(chain, new Error('nonce too low: another sender used it while the nonces below it were awaited'));
        } else {
          let signed: S;
          try {
            signed = await sign(held.nonce, prepared);
          } catch (e) {
            // Not persisted (the store refused it): the nonce goes back, or the next send would wait out a gap. Were the
            // bytes persisted after all (an answer lost), their nonce goes to another transaction and the engine, finding
            // it consumed, signs that step again (NonceConsumedError): nothing is sent twice.
            await held.release().catch(() => undefined);
            throw e;
          }
          try {
            await broadcast(access, chain, signed.raw);
            return signed;
          } catch (e) {
            failure = e;
            // never broadcast: the nonce goes back, no gap is left (best effort: the allocator may be down too)
            if (!nonceTaken(e)) await held.release().catch(() => undefined);
          }
        }
        if (nonceTaken(failure)) o.onNonceRetry?.(chain, account.address);
        if (!(await retryTakenNonce(o.clock, failure, attempt))) throw failure;
      }
    });
  };
}
