import type { Address } from 'viem';
import type { ManifestMarket } from '../../ports/deploymentManifest';

/** A protocol's address field of a manifest market (the manifest schema checked it at start). */
export function addressOf(m: ManifestMarket, field: string): Address {
  const a = m[field];
  if (typeof a !== 'string') throw new Error(`${m.protocol} ${m.asset} market: no ${field} in the deployment manifest`);
  return a as Address;
}
