import type { Address } from 'viem';
import type { AppDeps } from '../deps';
import type { SandboxControls } from '../../ports/sandboxControls';
import type { SandboxManifest } from '../../ports/deploymentManifest';
import type { ChainName, TokenAsset } from '../../domain/chains';
import type { FaultKind } from '../../domain/sandboxFaults';
import type { Protocol } from '../../ports/chain';
import { toUnits } from '../../domain/money';
import { invalidRequest } from '../../domain/errors/request';
import { RATE_HISTORY_RETENTION_MS, sampleMinute } from '../../domain/rateHistory';
import type { RateSampler } from '../yields/rateSampler';

/**
 * The sandbox admin use-cases (docs/operations.md). Each control also drops the read
 * caches it makes stale, so the next /v1 read sees its effect at once.
 */
export function sandboxAdmin(
  deps: Pick<AppDeps, 'chains' | 'caches' | 'clock'>,
  controls: SandboxControls,
  deployment: SandboxManifest,
  sampler?: Pick<RateSampler, 'sampleAndSettle'>,
) {
  return {
    /**
     * The deployment in the CHAIN_MANIFEST shape (what rpc mode reads), plus
     * `attestationApi`, the base URL of the sandbox's Iris-compatible
     * attestation service: tools find the contracts here.
     */
    manifest() {
      return { ...deployment, attestationApi: deployment.attestationApi ?? null };
    },
    /** Sets a market's supply APY on chain. */
    async setRate(p: { chain: ChainName; protocol: Protocol; asset: TokenAsset; apy: number }) {
      const { txHash } = await controls.setRate(p);
      deps.caches.rates.clear();
      return { ...p, txHash };
    },
    /**
     * Mints `amount` (decimal string) of a test token to an address. Circle's
     * USDC blacklists its own contract address, so a mint to it would revert:
     * refused here, naming the field, like the zero address in the schema.
     */
    async mint(p: { chain: ChainName; asset: TokenAsset; address: Address; amount: string }) {
      const token = deployment.chains[p.chain]?.tokens[p.asset];
      if (p.asset === 'USDC' && token !== undefined && token.toLowerCase() === p.address.toLowerCase()) {
        throw invalidRequest([{ path: 'address', message: `address is the USDC contract on ${p.chain}, which USDC refuses to mint to` }]);
      }
      const { txHash } = await controls.mint({ ...p, amount: toUnits(p.amount, p.asset) });
      deps.caches.holdings.clear();
      return { ...p, txHash };
    },
    /** Makes the next `count` chain calls of `kind` fail on `chain`, or (`stall`) stops its mining for `seconds`. */
    async registerFault(p: { chain: ChainName; kind: FaultKind | 'stall'; count?: number; seconds?: number }) {
      if (p.kind === 'stall') {
        const { resumesAt } = await controls.stall(p.chain, p.seconds ?? 1);
        return { chain: p.chain, kind: p.kind, seconds: p.seconds, resumesAt };
      }
      const fault = { chain: p.chain, kind: p.kind, count: p.count ?? 1 };
      controls.registerFault(fault);
      return fault;
    },
    /** Advances devnet time (one chain, or all) so interest accrues. */
    async advanceTime(p: { chain?: ChainName; seconds: number }) {
      const chains = p.chain ? [p.chain] : [...deps.chains.chains];
      await Promise.all(chains.map((c) => controls.increaseTime(c, p.seconds)));
      deps.caches.holdings.clear();
      return {
        chains,
        seconds: p.seconds,
        // The one deliberate way a devnet's clock leaves the wall clock's: say what that costs.
        effects: {
          interest: `positions on ${chains.join(', ')} accrued ${p.seconds} s of interest at once`,
          paidReads: `these chains now run ${p.seconds} s ahead of the wall clock for good: an x402 payment signed with the wall clock (validBefore = now + maxTimeoutSeconds) is refused as expired on them while the lead exceeds its window; restart the sandbox to realign`,
        },
      };
    },
    /**
     * Takes a rate sample now and answers once the standing intents have been
     * decided on it, so "the next sample" can be had on demand. `at` files it
     * under that minute instead of now's (the rates are still today's, read
     * from the chains now): a sandbox tool for replaying a scenario minute by
     * minute, never something a production sampler does. It may not be in
     * the future (that minute's real sample would find its decisions taken)
     * nor older than the history keeps.
     */
    async sample(p: { at?: string }) {
      if (!sampler) throw new Error('the sandbox admin was built without a rate sampler');
      const at = p.at === undefined ? undefined : new Date(p.at);
      if (at) {
        const now = deps.clock.now();
        if (sampleMinute(at) > sampleMinute(now))
          throw invalidRequest([{ path: 'at', message: `at must not be after the current minute (${sampleMinute(now)})` }]);
        if (now.getTime() - at.getTime() >= RATE_HISTORY_RETENTION_MS) {
          throw invalidRequest([{ path: 'at', message: `at must be within the ${RATE_HISTORY_RETENTION_MS / 86_400_000} days the rate history keeps` }]);
        }
      }
      const taken = await sampler.sampleAndSettle(at);
      return { at: taken.at, markets: taken.samples.map(({ chain, protocol, asset, token, apy }) => ({ chain, protocol, asset, token, apy })) };
    },
  };
}

/** The sandbox admin use-cases over one deployment, as the REST admin routes call them. */
export type SandboxAdmin = ReturnType<typeof sandboxAdmin>;
