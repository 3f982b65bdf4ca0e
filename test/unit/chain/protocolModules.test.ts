import { decodeFunctionData, erc20Abi, type Address } from 'viem';
import { DEFAULT_PROTOCOLS } from '../../../src/chain/protocols/registry';
import { aavePoolAbi } from '../../../src/chain/protocols/aavePoolAbi';
import { supplyCalls } from '../../../src/chain/protocols/calls';
import { encodeTx } from '../../../src/chain/viem/encodeTx';
import { LENDING_PROTOCOLS } from '../../../src/domain/protocols';
import { TYPICAL_GAS } from '../../../src/ports/typicalGas';
import type { ChainDeployment } from '../../../src/ports/deploymentManifest';

const A = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`;
const deployment: ChainDeployment = {
  chain: 'base-sepolia',
  chainId: 84532,
  rpcUrl: 'http://127.0.0.1:1',
  tokens: { USDC: A(1) },
  aavePool: A(2),
  markets: [
    { protocol: 'aave-v3', asset: 'USDC', token: A(1), aToken: A(3) },
    { protocol: 'compound-v3', asset: 'USDC', token: A(1), comet: A(4) },
  ],
  tokenMessenger: A(5),
  messageTransmitter: A(6),
  ethUsdFeed: A(7),
};
const wallet = A(9);

describe('lending protocol modules', () => {
  it("behavior: the registry holds a module for each of the domain's protocol names", () => {
    expect(DEFAULT_PROTOCOLS.modules.map((m) => m.name)).toEqual([...LENDING_PROTOCOLS]);
  });

  it('error: a protocol the registry has no module of is an INTERNAL_ERROR, never a fallback', () => {
    expect(() => DEFAULT_PROTOCOLS.get('morpho')).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
    const tx = { kind: 'supply', chain: 'base-sepolia', protocol: 'morpho', asset: 'USDC', amount: 1n } as never;
    expect(() => encodeTx({ deployment, protocols: DEFAULT_PROTOCOLS }, tx, wallet)).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
  });

  it("behavior: TYPICAL_GAS bounds every module's supply and withdraw", () => {
    for (const m of DEFAULT_PROTOCOLS.modules) {
      expect(m.typicalGas.supply).toBeLessThanOrEqual(TYPICAL_GAS.supply);
      expect(m.typicalGas.withdraw).toBeLessThanOrEqual(TYPICAL_GAS.withdraw);
    }
  });

  it("behavior: an Aave deposit's calls are an approve of the Pool and IPool.supply on the wallet's behalf; the executor encodes the same calls", () => {
    const aave = DEFAULT_PROTOCOLS.get('aave-v3');
    const market = deployment.markets[0]!;
    const [approve, supply] = supplyCalls(aave, deployment, market, 5_000_000n, wallet);
    expect(approve!.to).toBe(A(1));
    expect(decodeFunctionData({ abi: erc20Abi, data: approve!.data })).toEqual({ functionName: 'approve', args: [A(2), 5_000_000n] });
    expect(supply!.to).toBe(A(2));
    expect(decodeFunctionData({ abi: aavePoolAbi, data: supply!.data })).toEqual({ functionName: 'supply', args: [A(1), 5_000_000n, wallet, 0] });
    const c = { deployment, protocols: DEFAULT_PROTOCOLS };
    expect(encodeTx(c, { kind: 'approve', chain: 'base-sepolia', asset: 'USDC', spender: 'aave-v3', amount: 5_000_000n }, wallet)).toEqual(approve);
    expect(encodeTx(c, { kind: 'supply', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: 5_000_000n }, wallet)).toEqual(supply);
  });

  it("behavior: a Comet's spender and position are the Comet itself", () => {
    const comet = DEFAULT_PROTOCOLS.get('compound-v3');
    const market = deployment.markets[1]!;
    expect(comet.spender(deployment, market)).toBe(A(4));
    expect(comet.position(market)).toBe(A(4));
    expect(comet.supplyCall(deployment, market, 1n, wallet).to).toBe(A(4));
  });
});
