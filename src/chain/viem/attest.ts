import type { Hex } from 'viem';
import { CHAINS, type ChainName } from '../../domain/chains';
import { attestationUnavailable } from '../../domain/errors/attestation';
import type { FaultRegistry } from '../../domain/sandboxFaults';
import type { Attested } from '../../ports/chain';
import type { AttestationClient } from '../cctp/attestationClient';

/** ChainPort.attest: the message and attestation of a mined burn, from the attestation service. */
export async function attest(ctx: { attestations: AttestationClient; faults: FaultRegistry }, chain: ChainName, burnTxHash: Hex): Promise<Attested> {
  const ref = { sourceDomain: CHAINS[chain].cctpDomain, txHash: burnTxHash };
  // The sandbox fault: the attestation service does not answer this time, an ordinary transient error (the mint is retried).
  if (ctx.faults.take(chain, 'attestation-error')) throw attestationUnavailable(ref, new Error(`injected attestation-error: no attestation for ${burnTxHash}`));
  const { message, attestation } = await ctx.attestations.fetchAttestation(ref);
  return { message, attestation };
}
