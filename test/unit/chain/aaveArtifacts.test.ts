import type { Address } from 'viem';
import { aaveArtifact, librariesOf, linkBytecode, AAVE_ARTIFACT_PATHS, type AaveContractName } from '../../../src/chain/sandbox/aave/aaveArtifacts';

const LIBRARY: Address = '0x00000000000000000000000000000000000000aa';

describe('@aave/core-v3 artifacts', () => {
  test.each(Object.keys(AAVE_ARTIFACT_PATHS) as AaveContractName[])('behavior: %s loads from the installed package with creation code', (name) => {
    const a = aaveArtifact(name);
    expect(a.contractName).toBe(name);
    expect(a.bytecode).toMatch(/^0x[0-9a-f_$]{100,}/i);
  });

  test('behavior: linking Pool replaces every placeholder with the library address', () => {
    const pool = aaveArtifact('Pool');
    const libraries = Object.fromEntries(librariesOf(pool.linkReferences).map((n) => [n, LIBRARY]));
    expect(pool.bytecode).toContain('__$');
    const linked = linkBytecode(pool.bytecode, pool.linkReferences, libraries);
    expect(linked).toMatch(/^0x[0-9a-f]+$/);
    expect(linked).toHaveLength(pool.bytecode.length);
    const offsets = Object.values(pool.linkReferences).flatMap((byName) => Object.values(byName).flat());
    expect(offsets.length).toBe(23);
    for (const { start } of offsets) expect(linked.slice(2 + start * 2, 2 + start * 2 + 40)).toBe(LIBRARY.slice(2));
  });

  test('error: a library without an address is named', () => {
    const pool = aaveArtifact('Pool');
    expect(() => linkBytecode(pool.bytecode, pool.linkReferences, { SupplyLogic: LIBRARY })).toThrow(/no address for library \w+Logic/);
  });

  test('error: a reference that points at no placeholder fails instead of overwriting code', () => {
    const flash = aaveArtifact('FlashLoanLogic');
    const shifted = { f: { BorrowLogic: [{ start: 0, length: 20 }] } };
    expect(() => linkBytecode(flash.bytecode, shifted, { BorrowLogic: LIBRARY })).toThrow(/no placeholder for BorrowLogic at byte 0/);
  });
});
