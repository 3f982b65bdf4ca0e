import { parseAbi, parseSignature, type Address, type LocalAccount } from 'viem';
import type { ChainName, TokenAsset } from '../../domain/chains';
import type { Protocol, TxRequest } from '../../ports/chain';
import { findMarket } from '../../ports/deploymentManifest';
import type { TokenPermit } from '../protocols/types';
import type { ChainAccess } from './chainAccess';
import { spenderAddress, token } from './encodeTx';

/**
 * The assets whose token signs EIP-2612 permits wherever the service lends
 * it: Circle's USDC (FiatTokenV2_2, on the real networks and in the sandbox).
 * The sandbox's other tokens take none.
 */
const PERMIT_ASSETS: ReadonlySet<TokenAsset> = new Set(['USDC']);

/**
 * How long a permit stays valid after the chain's latest block: long enough
 * for a slow block or a fee-bumped replacement (which carries the same
 * signature), short enough that a signature lost in a log is soon worthless.
 */
export const PERMIT_WINDOW_SECONDS = 20n * 60n;

const eip2612Abi = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function nonces(address owner) view returns (uint256)',
]);

const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/** Whether a supply of `asset` to `protocol` on `chain` can carry a permit: the market exists, its module has a permit supply, its token signs permits. */
export function supplyPermit(access: ChainAccess, chain: ChainName, protocol: Protocol, asset: TokenAsset): boolean {
  if (!access.has(chain) || !PERMIT_ASSETS.has(asset)) return false;
  const c = access.client(chain);
  if (findMarket(c.deployment, protocol, asset) === undefined || !c.protocols.has(protocol)) return false;
  return c.protocols.get(protocol).supplyWithPermitCall !== undefined;
}

/** Signs the EIP-2612 permits a permit supply carries; the token's EIP-712 domain name and version are read once per token. */
export interface PermitSigner {
  /** The permit of `tx`'s amount from `account` to the protocol's spender, at the token's current nonce, valid PERMIT_WINDOW_SECONDS past the latest block. */
  sign(account: LocalAccount, tx: Extract<TxRequest, { kind: 'supply' }>): Promise<TokenPermit>;
}

export function createPermitSigner(access: ChainAccess): PermitSigner {
  const domains = new Map<string, Promise<{ name: string; version: string }>>();
  const domainOf = (chain: ChainName, address: Address) => {
    const key = `${chain}:${address}`;
    let d = domains.get(key);
    if (!d) {
      d = access.call(chain, async (c) => {
        const [name, version] = await Promise.all([
          c.client.readContract({ address, abi: eip2612Abi, functionName: 'name' }),
          c.client.readContract({ address, abi: eip2612Abi, functionName: 'version' }),
        ]);
        return { name, version };
      });
      // a failed read is asked again next time
      d.catch(() => domains.delete(key));
      domains.set(key, d);
    }
    return d;
  };
  return {
    async sign(account, tx) {
      const c = access.client(tx.chain);
      const verifyingContract = token(c.deployment, tx.asset);
      const spender = spenderAddress(c, tx.protocol, tx.asset);
      // the deadline is the chain's time, not ours: a devnet's clock may be moved forward
      const [domain, nonce, block] = await Promise.all([
        domainOf(tx.chain, verifyingContract),
        access.call(tx.chain, (x) => x.client.readContract({ address: verifyingContract, abi: eip2612Abi, functionName: 'nonces', args: [account.address] })),
        access.call(tx.chain, (x) => x.client.getBlock({ blockTag: 'latest' })),
      ]);
      const deadline = block.timestamp + PERMIT_WINDOW_SECONDS;
      const signature = await account.signTypedData({
        domain: { ...domain, chainId: c.chain.id, verifyingContract },
        types: PERMIT_TYPES,
        primaryType: 'Permit',
        message: { owner: account.address, spender, value: tx.amount, nonce, deadline },
      });
      const { r, s, v, yParity } = parseSignature(signature);
      return { deadline, v: Number(v ?? BigInt(yParity + 27)), r, s };
    },
  };
}
