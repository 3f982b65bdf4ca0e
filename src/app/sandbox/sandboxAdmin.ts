import type { Address } from 'viem';
import type { AppDeps } from '../deps';
import type { SandboxControls } from '../../ports/sandboxControls';
import type { SandboxManifest } from '../../ports/deploymentManifest';
import type { ChainName, TokenAsset } from '../../domain/chains';
import type { FaultKind } from '../../domain/sandboxFaults';
import type { Protocol } from '../../ports/chain';
import { toUnits } from '../../domain/money';

/**
 * The sandbox admin use-cases (docs/operations.md). Each control also drops the read
 * caches it makes stale, so the next /v1 read sees its effect at once.
 */
export function sandboxAdmin(deps: Pick<AppDeps, 'chains' | 'caches'>, controls: SandboxControls, deployment: SandboxManifest) {
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
    /** Mints `amount` (decimal string) of a test token to an address. */
    async mint(p: { chain: ChainName; asset: TokenAsset; address: Address; amount: string }) {
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
  };
}

/** The sandbox admin use-cases over one deployment, as the REST admin routes call them. */
export type SandboxAdmin = ReturnType<typeof sandboxAdmin>;
