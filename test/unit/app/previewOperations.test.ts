import { parseUnits } from 'viem';
import type { ChainPort } from '../../../src/ports/chain';
import { AUTHORIZATION_GAS, OPERATION_OVERHEAD_GAS } from '../../../src/ports/typicalGas';
import { startIntentsServer, type IntentsServer } from '../engine/intentsServer';

/**
 * POST /v1/intents/preview on the fake chain, priced as each chain runs the
 * wallet's calls: plain transactions (with a permit supply where the market
 * takes one), or, on a 7702 chain, one user operation whose overhead the
 * step closing it carries.
 */

type Models = Pick<ChainPort, 'accountModel' | 'supplyPermit'>;
let s: IntentsServer;
let key: string;

beforeAll(async () => {
  s = await startIntentsServer();
  key = (await s.account('pro')).key;
});
afterEach(() => {
  const chain = s.chain as Models;
  delete chain.accountModel;
  delete chain.supplyPermit;
});
afterAll(async () => {
  await s?.stop();
});

async function previewLend(): Promise<{ steps: { gas: { units: string; transactions: { kind: string; gas: string }[] } }[]; totals: { gasUnits: string } }> {
  const w = await s.wallet(key);
  s.chain.fund('base-sepolia', w.address, 'USDC', parseUnits('10', 6));
  const r = await s.rest('POST', '/v1/intents/preview', key, { walletId: w.id, action: 'lend', amount: 5, chain: 'base-sepolia' });
  expect(r.status).toBe(200);
  return r.body;
}
const sumOf = (txs: { gas: string }[]): bigint => txs.reduce((sum, t) => sum + BigInt(t.gas), 0n);

test('behavior: on a plain chain the deposit is priced as its two transactions, nothing added', async () => {
  const p = await previewLend();
  expect(p.steps[0]!.gas.transactions.map((t) => t.kind)).toEqual(['approve', 'supply']);
  expect(BigInt(p.steps[0]!.gas.units)).toBe(sumOf(p.steps[0]!.gas.transactions));
  expect(p.totals.gasUnits).toBe(p.steps[0]!.gas.units);
});

test('behavior: on a plain chain whose market takes a permit, the deposit is one transaction, the permit supply', async () => {
  (s.chain as Models).supplyPermit = () => true;
  const p = await previewLend();
  expect(p.steps[0]!.gas.transactions.map((t) => t.kind)).toEqual(['supply']);
  expect(p.totals.gasUnits).toBe(p.steps[0]!.gas.transactions[0]!.gas);
});

test('behavior: on a 7702 chain the calls are one operation: their gas plus its overhead and the authorization, no permit', async () => {
  Object.assign(s.chain as Models, { accountModel: () => '7702', supplyPermit: () => true } satisfies Models);
  const p = await previewLend();
  const step = p.steps[0]!;
  expect(step.gas.transactions.map((t) => t.kind)).toEqual(['approve', 'supply']);
  expect(BigInt(step.gas.units)).toBe(sumOf(step.gas.transactions) + OPERATION_OVERHEAD_GAS + AUTHORIZATION_GAS);
  expect(p.totals.gasUnits).toBe(step.gas.units);
});
