import { readFileSync } from 'node:fs';
import { ABIS_PATH, ARTIFACTS_PATH, compileContracts, renderAbisTs, renderArtifactsJson, type CompiledContracts } from '../../scripts/compile-contracts';

// solc-js (wasm) compiles contracts/ in about 3 s here.
describe('sandbox contract artifacts', () => {
  let compiled: CompiledContracts;
  beforeAll(() => {
    compiled = compileContracts();
  }, 60_000);

  it('behavior: committed artifacts.json matches a fresh compile of contracts/ (run `npm run contracts` if not)', () => {
    expect(readFileSync(ARTIFACTS_PATH, 'utf8')).toBe(renderArtifactsJson(compiled));
  });

  it('behavior: committed abis.ts matches a fresh compile of contracts/ (run `npm run contracts` if not)', () => {
    expect(readFileSync(ABIS_PATH, 'utf8')).toBe(renderAbisTs(compiled));
  });

  it('behavior: every deployable sandbox contract is present with bytecode', () => {
    expect(Object.keys(compiled)).toEqual([
      'MessageTransmitterV2',
      'SandboxComet',
      'SandboxCreate2Factory',
      'SandboxPriceFeed',
      'SandboxRateStrategy',
      'SandboxToken',
      'ServicePaymaster',
      'TokenMessengerV2',
    ]);
    for (const c of Object.values(compiled)) expect(c.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
  });
});
