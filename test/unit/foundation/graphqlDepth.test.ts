import { parse, validate } from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';
import { maxDepthRule } from '../../../src/graphql/operationLimits';

const schema = buildSchema();
const errorsOf = (q: string, max: number) => validate(schema, parse(q), [maxDepthRule(max)]);

describe('GraphQL depth limit', () => {
  it('behavior: a query within the limit passes', () => {
    expect(errorsOf('{ balances(walletId: "w") { chains { tokens { asset } } } }', 4)).toEqual([]);
  });

  it('error: a deeper query is rejected with INVALID_REQUEST, fragments counted', () => {
    const q = 'query { balances(walletId: "w") { ...C } } fragment C on BalanceReport { chains { tokens { asset } } }';
    const errors = errorsOf(q, 3);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('Query depth 4 exceeds the limit of 3');
    expect(errors[0]!.extensions.code).toBe('INVALID_REQUEST');
  });
});
