import type { Address } from 'viem';
import { sandboxTokenAbi } from '../sandbox/abis';
import type { TokenAsset } from '../../domain/chains';
import type { ChainHoldings, PositionHolding, TokenHolding } from '../../ports/chain';
import type { ChainClient } from './chainClients';
import { readSupplyIndex } from './readSupplyIndex';

/**
 * Native, token and position balances of `address` on one chain, read
 * concurrently (one batched round trip). A position is the ERC-20 `balanceOf`
 * of its protocol's position contract (an aToken, a Comet; interest included), with its
 * market's supply index from the same batch (earnings tell interest from
 * supplies made by others with it); an index that cannot be read is left out.
 */
export async function readHoldings(c: ChainClient, address: Address): Promise<ChainHoldings> {
  const { client, deployment: d } = c;
  const tokens = Object.entries(d.tokens) as [TokenAsset, Address][];
  const balanceOf = (contract: Address) => client.readContract({ address: contract, abi: sandboxTokenAbi, functionName: 'balanceOf', args: [address] });
  const [native, tokenBalances, positionBalances, indices] = await Promise.all([
    client.getBalance({ address }),
    Promise.all(tokens.map(([, token]) => balanceOf(token))),
    Promise.all(d.markets.map((m) => balanceOf(c.protocols.get(m.protocol).position(m)))),
    Promise.all(d.markets.map((m) => readSupplyIndex(c, m).catch(() => undefined))),
  ]);
  const held: TokenHolding[] = [];
  if (native > 0n) held.push({ asset: 'ETH', balance: native });
  tokens.forEach(([asset, token], i) => {
    const balance = tokenBalances[i] ?? 0n;
    if (balance > 0n) held.push({ asset, token, balance });
  });
  const positions: PositionHolding[] = [];
  d.markets.forEach((m, i) => {
    const amount = positionBalances[i] ?? 0n;
    const index = indices[i];
    if (amount > 0n) positions.push({ protocol: m.protocol, asset: m.asset, token: m.token, amount, ...(index !== undefined && { index }) });
  });
  return { chain: c.name, tokens: held, positions };
}
