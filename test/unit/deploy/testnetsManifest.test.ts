import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAddress, getContractAddress, isAddress, type Address } from 'viem';
import { AaveV3ArbitrumSepolia, AaveV3BaseSepolia, AaveV3Sepolia } from '@aave-dao/aave-address-book';
import { CHAINS, type ChainName } from '../../../src/domain/chains';
import type { SandboxManifest } from '../../../src/ports/deploymentManifest';
import { parseManifest } from '../../../src/chain/sandbox/manifestSchema';
import { sandboxMarkets } from '../../../src/chain/sandbox/marketLayout';
import { ARACHNID_DEPLOYER, ERC4337_SALTS, erc4337Artifact } from '../../../src/chain/sandbox/erc4337/canonical';

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
      const marketAddresses = d.markets.flatMap((m) => [m.token, m.protocol === 'aave-v3' ? m.aToken : m.comet]);
      const addresses = [...Object.values(d.tokens), ...marketAddresses, d.aavePool, d.tokenMessenger, d.messageTransmitter, d.ethUsdFeed].filter(
        (a): a is Address => a !== null,
      );
      for (const a of addresses) expect(isAddress(a, { strict: true })).toBe(true);
    }
  });

  test.each(NAMES)(
    "behavior: %s: Circle's USDC, TokenMessengerV2, MessageTransmitterV2 and the CCTP domain are those of @circle-fin/provider-cctp-v2",
    (name) => {
      const d = manifest.chains[name]!;
      const circle = circleChain(CHAINS[name].chainId);
      expect(same(d.tokens.USDC, circle.usdc)).toBe(true);
      expect(same(d.tokenMessenger, circle.tokenMessenger)).toBe(true);
      expect(same(d.messageTransmitter, circle.messageTransmitter)).toBe(true);
      expect(CHAINS[name].cctpDomain).toBe(circle.domain);
    },
  );

  test.each(NAMES)(
    "behavior: %s: the Aave v3 Pool, each listed token and its aToken are those of @aave-dao/aave-address-book; USDC is listed only where Aave lists Circle's USDC",
    (name: ChainName) => {
      const d = manifest.chains[name]!;
      const book = AAVE[name as keyof typeof AAVE];
      expect(same(d.aavePool, book.POOL)).toBe(true);
      const reserves = Object.values(book.ASSETS) as { UNDERLYING: string; A_TOKEN: string }[];
      for (const m of d.markets) {
        if (m.protocol !== 'aave-v3') continue;
        // a market names its token, and that token is the chain's token of the asset
        expect(same(m.token, d.tokens[m.asset])).toBe(true);
        const reserve = reserves.find((r) => same(r.UNDERLYING, m.token));
        expect({ asset: m.asset, listed: reserve !== undefined }).toEqual({ asset: m.asset, listed: true });
        expect(same(m.aToken as string, reserve!.A_TOKEN)).toBe(true);
      }
      // A protocol's own faucet token is never "USDC": Aave's USDC market counts only where its underlying is Circle's.
      const aaveUsdc = (book.ASSETS as Record<string, { UNDERLYING: string }>).USDC;
      expect(d.markets.some((m) => m.protocol === 'aave-v3' && m.asset === 'USDC')).toBe(aaveUsdc !== undefined && same(aaveUsdc.UNDERLYING, d.tokens.USDC));
      expect(d.markets.some((m) => m.sandboxOnly)).toBe(false);
      // the ETH/USD feed is the one Aave prices WETH with on that network
      expect(same(d.ethUsdFeed, (book.ASSETS as Record<string, { ORACLE: string }>).WETH!.ORACLE)).toBe(true);
    },
  );

  test("behavior: Compound III is listed where a Comet with Circle's USDC exists (ethereum-sepolia) and nowhere else", () => {
    const comets = NAMES.flatMap((name) => manifest.chains[name]!.markets.filter((m) => m.protocol === 'compound-v3').map((m) => ({ name, ...m })));
    expect(comets).toEqual([
      {
        name: 'ethereum-sepolia',
        protocol: 'compound-v3',
        asset: 'USDC',
        token: manifest.chains['ethereum-sepolia']!.tokens.USDC,
        comet: '0xAec1F48e02Cfb822Be958B68C7957156EB3F0b6e',
      },
    ]);
  });

  test.each(NAMES)("behavior: %s: the sandbox's real market layout (SANDBOX_MARKETS=testnets) is exactly the markets listed here", (name) => {
    const listed = manifest.chains[name]!.markets.map((m) => `${m.protocol}:${m.asset}`).sort();
    const sandbox = sandboxMarkets(name, 'testnets')
      .map((m) => `${m.protocol}:${m.asset}`)
      .sort();
    expect(sandbox).toEqual(listed);
    // and the default layout only adds markets marked sandbox-only
    const extra = sandboxMarkets(name, 'all').filter((m) => !listed.includes(`${m.protocol}:${m.asset}`));
    expect(extra.every((m) => m.sandboxOnly)).toBe(true);
  });

  test.each(NAMES)(
    "behavior: %s: ERC-4337 v0.8's EntryPoint and Simple7702Account are where CREATE2 of @account-abstraction/contracts' init code through Arachnid's deployer puts them; the chain stays plain until the operator's paymaster replaces the zero placeholder",
    (name) => {
      const d = manifest.chains[name]!;
      const create2 = (artifact: 'EntryPoint' | 'Simple7702Account', salt: `0x${string}`) =>
        getContractAddress({ opcode: 'CREATE2', from: ARACHNID_DEPLOYER, salt, bytecode: erc4337Artifact(artifact).bytecode });
      expect(d.erc4337?.entryPoint).toBe(create2('EntryPoint', ERC4337_SALTS.entryPoint));
      expect(d.erc4337?.delegate).toBe(create2('Simple7702Account', ERC4337_SALTS.delegate));
      expect({ accountModel: d.accountModel, paymaster: d.erc4337?.paymaster }).toEqual({
        accountModel: 'plain',
        paymaster: '0x0000000000000000000000000000000000000000',
      });
    },
  );

  test("behavior: the manifest passes the service's own manifest check", () => {
    expect(() => parseManifest(manifest, 'deploy/testnets.json')).not.toThrow();
  });
});

describe('the manifest check', () => {
  test('error: a market whose token is not the chain\'s token of its asset (Aave\'s faucet "USDC" listed as USDC) is refused, naming the path', () => {
    const bad = structuredClone(manifest);
    // Aave's own test USDC on Sepolia (not Circle's)
    bad.chains['ethereum-sepolia']!.markets.push({
      protocol: 'aave-v3',
      asset: 'USDC',
      token: '0x94a9D9AC8a22534E3FaCa9F4e7F2E2cf85d5E4C8',
      aToken: '0x16dA4541aD1807f4443d92D26044C1147406EB80',
    });
    expect(() => parseManifest(bad, 'bad.json')).toThrow(
      /chains\.ethereum-sepolia\.markets\.\d+\.token: aave-v3 USDC: token 0x94a9D9AC8a22534E3FaCa9F4e7F2E2cf85d5E4C8 is not the chain's USDC/,
    );
  });

  test('error: a second market of one protocol and asset, a misfiled chain and a bad address are each named', () => {
    const bad = structuredClone(manifest) as any;
    const arb = bad.chains['arbitrum-sepolia'];
    arb.markets.push({ ...arb.markets[0] });
    bad.chains['base-sepolia'].chain = 'arbitrum-sepolia';
    bad.chains['base-sepolia'].ethUsdFeed = '0x1234';
    let message = '';
    try {
      parseManifest(bad, 'bad.json');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/chains\.arbitrum-sepolia\.markets\.\d+: a second aave-v3 USDC market/);
    expect(message).toMatch(/chains\.base-sepolia\.chain: chain arbitrum-sepolia listed under base-sepolia/);
    expect(message).toMatch(/chains\.base-sepolia\.ethUsdFeed: must be a 0x-prefixed 20-byte hex address/);
  });
});
