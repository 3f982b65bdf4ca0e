import type { Hex } from 'viem';
import { CHAINS, type ChainName } from '../../domain/chains';
import { attestationUnavailable } from '../../domain/errors/attestation';
import type { FaultRegistry } from '../../domain/sandboxFaults';
import type { Attested } from '../../ports/chain';
import type { Attestation, AttestationClient } from '../cctp/attestationClient';
import { decodeBurnMessageV2, decodeMessageV2, isBurnMessageBodyV2 } from '../cctp/messageV2';
import type { ChainAccess } from './chainAccess';

/**
 * Whether a mint of `a` would revert "Message expired and must be re-signed":
 * the transmitter requires `expirationBlock > block.number`, and the mint
 * lands at the earliest in the block after `latest`.
 */
export function hasExpired(a: Pick<Attestation, 'expirationBlock'>, latest: bigint): boolean {
  return a.expirationBlock !== 0n && a.expirationBlock <= latest + 1n;
}

/** The chain a message goes to: the one of `domain` on the source's side (main and test networks share domains). */
function destinationOf(source: ChainName, domain: number): ChainName | undefined {
  const testnet = CHAINS[source].testnet;
  return (Object.keys(CHAINS) as ChainName[]).find((c) => CHAINS[c].cctpDomain === domain && CHAINS[c].testnet === testnet);
}

/**
 * ChainPort.attest: the message and attestation of a mined burn, from the
 * attestation service. An attestation whose `expirationBlock` has passed on
 * the destination (its mint would revert) is re-attested first, as Circle
 * documents (`POST /v2/reattest/{nonce}`), and the new one is waited for.
 */
export async function attest(
  ctx: { attestations: AttestationClient; faults: FaultRegistry; access: ChainAccess },
  chain: ChainName,
  burnTxHash: Hex,
): Promise<Attested> {
  const ref = { sourceDomain: CHAINS[chain].cctpDomain, txHash: burnTxHash };
  // The sandbox fault: the attestation service does not answer this time, an ordinary transient error (the mint is retried).
  if (ctx.faults.take(chain, 'attestation-error')) throw attestationUnavailable(ref, new Error(`injected attestation-error: no attestation for ${burnTxHash}`));
  let attested = await ctx.attestations.fetchAttestation(ref);
  const to = destinationOf(chain, attested.destinationDomain);
  if (attested.expirationBlock !== 0n && to !== undefined && ctx.access.has(to)) {
    const latest = await ctx.access.call(to, (c) => c.client.getBlockNumber({ cacheTime: 0 }));
    if (hasExpired(attested, latest)) {
      await ctx.attestations.reattest({ ...ref, nonce: attested.nonce });
      attested = await ctx.attestations.fetchAttestation({ ...ref, replacing: attested.attestation });
    }
  }
  return { message: attested.message, attestation: attested.attestation, ...feeOf(attested.message) };
}

/** The fee the mint of `message` keeps back, as the attestation service filled it in (a user operation supplies what arrives). */
function feeOf(message: Hex): { feeExecuted?: bigint } {
  try {
    const body = decodeMessageV2(message).messageBody;
    return isBurnMessageBodyV2(body) ? { feeExecuted: decodeBurnMessageV2(body).feeExecuted } : {};
  } catch {
    return {};
  }
}
