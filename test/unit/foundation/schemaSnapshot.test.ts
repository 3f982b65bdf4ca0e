import { readFileSync } from 'node:fs';
import { SCHEMA_PATH, schemaSDL } from '../../../scripts/print-schema';
import { buildSchema } from '../../../src/graphql/schema';

describe('schema.graphql', () => {
  test('behavior: the committed schema.graphql matches the Pothos schema', () => {
    const committed = readFileSync(SCHEMA_PATH, 'utf8');
    const current = schemaSDL();
    expect(committed === current ? 'up to date' : 'schema.graphql is stale: run `npm run schema` and commit it').toBe('up to date');
  });

  test('behavior: the schema publishes the wallet operations (nullable: a refusal nulls only its own field)', () => {
    const schema = buildSchema();
    const wallet = schema.getQueryType()!.getFields().wallet!;
    const createWallet = schema.getMutationType()!.getFields().createWallet!;
    expect(`wallet(${wallet.args.map((a) => `${a.name}: ${a.type}`).join(', ')}): ${wallet.type}`).toBe('wallet(userId: String!): Wallet');
    expect(`createWallet(${createWallet.args.map((a) => `${a.name}: ${a.type}`).join(', ')}): ${createWallet.type}`).toBe(
      'createWallet(input: CreateWalletInput!): Wallet',
    );
  });
});
