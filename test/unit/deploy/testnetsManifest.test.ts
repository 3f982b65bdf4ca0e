import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAddress, isAddress, type Address } from 'viem';
import { AaveV3ArbitrumSepolia, AaveV3BaseSepolia, AaveV3Sepolia } from '@aave-dao/aave-address-book';
import { CHAINS, type ChainName, type TokenAsset } from '../../../src/domain/chains';
import type { SandboxManifest } from '../../../src/ports/deploymentManifest';

/**
 * deploy/testnets.json is what `CHAIN_MODE=rpc CHAIN_MANIFEST=deploy/testnets.json`
 * runs on. Every address in it is compared with the protocols' own packages
 * (Aave's address book; Circle's CCTP v2 provider, whose chain definitions
 * are read from its bundle), so a typo fails here, not on a real network.
 */
const manifest = JSON.parse(readFileSync(join(__dirname, '../../../deploy/testnets.json'), 'utf8')) as SandboxManifest;
const AAVE = { 'ethereum-sepolia': AaveV3Sepolia, 'arbitrum-sepolia': AaveV3ArbitrumSepolia, 'base-sepolia': AaveV3BaseSepolia } as const;
const NAMES = Object.keys(AAVE) as (keyof typeof AAVE)[];

/** One chain definition of @circle-fin/provider-cctp-v2 (its bundle defines them with defineChain and exports none). */
function circleChain(chainId: number): { usdc: string; domain: number; tokenMessenger: string; messageTransmitter: string } {
  const bundle = readFileSync(require.resolve('@circle-fin/provider-cctp-v2'), 'utf8');
  const definitions = bundle.split('defineChain({').slice(1);
  const def = definitions.find((d) => new RegExp(`chainId:\\s*${chainId},`).test(d.slice(0, d.indexOf('cctpx') > 0 ? d.indexOf('cctpx') : undefined)));
  if (!def) throw new Error(`no Circle chain definition with chain id ${chainId}`);
  const v2 = def.slice(def.indexOf('v2: {'));
  const pick = (text: string, key: string): string => {
    const m = new RegExp(`${key}:\\s*'(0x[0-9a-fA-F]{40})'`).exec(text);
    if (!m) throw new Error(`no ${key} for chain ${chainId}`);
    return m[1]!;
  };
  return {
    usdc: pick(def, 'usdcAddress'),
    domain: Number(/domain:\s*(\d+)/.exec(def)![1]),
    tokenMessenger: pick(v2, 'tokenMessenger'),
    messageTransmitter: pick(v2, 'messageTransmitter'),
  };
}

const same = (a: string | null | undefined, b: string | null | undefined) => (a && b ? getAddress(a) === getAddress(b) : a === b);

describe('deploy/testnets.json', () => {
  test('behavior: names exactly the three test networks with their chain ids, and every address is a checksummed address', () => {
    expect(Object.keys(manifest.chains).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      const d = manifest.chains[name]!;
      expect({ chain: d.chain, chainId: d.chainId }).toEqual({ chain: name, chainId: CHAINS[name].chainId });
      const addresses = [...Object.values(d.tokens), ...Object.values(d.aTokens), d.aavePool, d.comet, d.tokenMessenger, d.messageTransmitter, d.ethUsdFeed].filter((a): a is Address => a !== null);
      for (const a of addresses) expect(isAddress(a, { strict: true })).toBe(true);
    }
  });

  test.each(NAMES)('behavior: %s: Circle\'s USDC, TokenMessengerV2, MessageTransmitterV2 and the CCTP domain are those of @circle-fin/provider-cctp-v2', (name) => {
    const d = manifest.chains[name]!;
    const circle = circleChain(CHAINS[name].chainId);
    expect(same(d.tokens.USDC, circle.usdc)).toBe(true);
    expect(same(d.tokenMessenger, circle.tokenMessenger)).toBe(true);
    expect(same(d.messageTransmitter, circle.messageTransmitter)).toBe(true);
    expect(CHAINS[name].cctpDomain).toBe(circle.domain);
  });

  test.each(NAMES)('behavior: %s: the Aave v3 Pool, each listed token and its aToken are those of @aave-dao/aave-address-book; USDC is listed only where Aave lists Circle\'s USDC', (name: ChainName) => {
    const d = manifest.chains[name]!;
    const book = AAVE[name as keyof typeof AAVE];
    expect(same(d.aavePool, book.POOL)).toBe(true);
    const reserves = Object.values(book.ASSETS) as { UNDERLYING: string; A_TOKEN: string }[];
    for (const [asset, aToken] of Object.entries(d.aTokens) as [TokenAsset, Address][]) {
      const reserve = reserves.find((r) => same(r.UNDERLYING, d.tokens[asset]));
      expect({ asset, listed: reserve !== undefined }).toEqual({ asset, listed: true });
      expect(same(aToken, reserve!.A_TOKEN)).toBe(true);
    }
    // A protocol's own faucet token is never "USDC": Aave's USDC market counts only where its underlying is Circle's.
    const aaveUsdc = (book.ASSETS as Record<string, { UNDERLYING: string }>).USDC;
    expect(d.aTokens.USDC !== undefined).toBe(aaveUsdc !== undefined && same(aaveUsdc.UNDERLYING, d.tokens.USDC));
    // the ETH/USD feed is the one Aave prices WETH with on that network
    expect(same(d.ethUsdFeed, (book.ASSETS as Record<string, { ORACLE: string }>).WETH!.ORACLE)).toBe(true);
  });

  test('behavior: Compound III is listed where a Comet with Circle\'s USDC exists (ethereum-sepolia) and nowhere else', () => {
    expect(manifest.chains['ethereum-sepolia']!.comet).toBe('0xAec1F48e02Cfb822Be958B68C7957156EB3F0b6e');
    expect(manifest.chains['arbitrum-sepolia']!.comet).toBeNull();
    expect(manifest.chains['base-sepolia']!.comet).toBeNull();
  });
});
