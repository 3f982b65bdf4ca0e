import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainName } from '../../src/domain/chains';
import type { SandboxManifest } from '../../src/ports/deploymentManifest';
import { startSandbox, type Sandbox } from '../../src/chain/sandbox/sandbox';
import { createChainClients } from '../../src/chain/viem/chainClients';
import { readRates } from '../../src/chain/viem/readRates';
import { verifyMarketTokens } from '../../src/chain/viem/verifyMarkets';
import { loadSandboxManifest } from '../setup/sandbox';

/**
 * The market layout both ways the sandbox runs it: `SANDBOX_MARKETS=testnets`
 * (a sandbox of this file's own) lists exactly the markets of
 * deploy/testnets.json, none marked sandbox-only; the default (the suite's
 * sandbox) adds Aave USDC markets marked so. On both, every market lends the
 * token it names, read from the contracts themselves, and a manifest that
 * labels one token's market as another's is caught.
 */
const CHAINS: readonly ChainName[] = ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];
const testnets = JSON.parse(readFileSync(join(__dirname, '../../deploy/testnets.json'), 'utf8')) as SandboxManifest;
const layoutOf = (m: SandboxManifest, chain: ChainName) =>
  m.chains[chain]!.markets.map((x) => `${x.protocol}:${x.asset}${x.sandboxOnly ? ' (sandbox only)' : ''}`).sort();

let own: Sandbox;
beforeAll(async () => {
  own = await startSandbox({ markets: 'testnets' });
}, 120_000);
afterAll(async () => {
  await own?.stop();
});

describe.each(CHAINS)('%s', (chain) => {
  test("behavior: SANDBOX_MARKETS=testnets lists exactly the real test network's markets, and each lends the token it names", async () => {
    expect(layoutOf(own.manifest, chain)).toEqual(layoutOf(testnets, chain));
    const client = createChainClients([own.manifest.chains[chain]!], 50).get(chain)!;
    expect(await verifyMarketTokens(client)).toEqual([]);
    const rates = await readRates(client);
    expect(rates.map((r) => `${r.protocol}:${r.asset}`).sort()).toEqual(layoutOf(testnets, chain));
    for (const r of rates) expect(r.apy).toBeGreaterThan(0);
  });

  test("behavior: Circle's USDC, TokenMessengerV2 and MessageTransmitterV2 sit at the addresses deploy/testnets.json names for the network", () => {
    for (const manifest of [own.manifest, loadSandboxManifest()]) {
      const d = manifest.chains[chain]!;
      const real = testnets.chains[chain]!;
      expect({ usdc: d.tokens.USDC, tokenMessenger: d.tokenMessenger, messageTransmitter: d.messageTransmitter }).toEqual({
        usdc: real.tokens.USDC,
        tokenMessenger: real.tokenMessenger,
        messageTransmitter: real.messageTransmitter,
      });
    }
  });

  test('behavior: the default layout is the real one plus Aave USDC markets marked sandbox-only, each lending the token it names', async () => {
    const manifest = loadSandboxManifest();
    const real = layoutOf(testnets, chain);
    const extra = layoutOf(manifest, chain).filter((m) => !real.includes(m));
    expect(extra).toEqual(chain === 'arbitrum-sepolia' ? [] : ['aave-v3:USDC (sandbox only)']);
    expect(await verifyMarketTokens(createChainClients([manifest.chains[chain]!], 50).get(chain)!)).toEqual([]);
  });
});

test("error: a manifest that lists the WETH reserve's aToken as an Aave USDC market is caught on chain", async () => {
  const d = structuredClone(own.manifest.chains['arbitrum-sepolia']!);
  const weth = d.markets.find((m) => m.protocol === 'aave-v3' && m.asset === 'WETH')!;
  const usdc = d.markets.find((m) => m.protocol === 'aave-v3' && m.asset === 'USDC')!;
  if (weth.protocol !== 'aave-v3' || usdc.protocol !== 'aave-v3') throw new Error('layout changed');
  usdc.aToken = weth.aToken;
  const problems = await verifyMarketTokens(createChainClients([d], 50).get('arbitrum-sepolia')!);
  expect(problems).toEqual([`arbitrum-sepolia aave-v3 USDC: ${weth.aToken} lends ${d.tokens.WETH}, not ${usdc.token}`]);
});
