import { once } from '../../../src/graphql/resolverHelpers';
import type { GraphQLContext } from '../../../src/graphql/context';

const ctx = () => ({}) as GraphQLContext;

test('behavior: one read per operation for the same field and arguments; other arguments or fields read again', async () => {
  const c = ctx();
  let reads = 0;
  const read = async () => ++reads;
  const same = await Promise.all([once(c, 'yields', { asset: 'USDC' }, read), once(c, 'yields', { asset: 'USDC' }, read)]);
  expect(same).toEqual([1, 1]);
  expect(await once(c, 'yields', { asset: 'DAI' }, read)).toBe(2);
  expect(await once(c, 'balances', { asset: 'USDC' }, read)).toBe(3);
  expect(await once(ctx(), 'yields', { asset: 'USDC' }, read)).toBe(4); // another operation reads for itself
});

test('error: a failed read is not kept: the next alias reads again', async () => {
  const c = ctx();
  let reads = 0;
  const flaky = async () => {
    reads++;
    if (reads === 1) throw new Error('chain hiccup');
    return reads;
  };
  await expect(once(c, 'yields', {}, flaky)).rejects.toThrow('chain hiccup');
  await Promise.resolve();
  expect(await once(c, 'yields', {}, flaky)).toBe(2);
});
