import { readFileSync } from 'node:fs';
import { SCHEMA_PATH, schemaSDL } from '../../../scripts/print-schema';

describe('schema.graphql', () => {
  test('behavior: the committed schema.graphql matches the Pothos schema', () => {
    const committed = readFileSync(SCHEMA_PATH, 'utf8');
    const current = schemaSDL();
    expect(committed === current ? 'up to date' : 'schema.graphql is stale: run `npm run schema` and commit it').toBe('up to date');
  });

  test('behavior: the schema publishes the wallet operations', () => {
    const sdl = schemaSDL();
    expect(sdl).toMatch(/wallet\(userId: String!\): Wallet!/);
    expect(sdl).toMatch(/createWallet\(input: CreateWalletInput!\): Wallet!/);
  });
});
