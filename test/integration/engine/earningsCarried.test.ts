import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { sandboxTokenAbi } from '../../../src/chain/sandbox/abis';
import { aavePoolAbi as sandboxPoolAbi } from '../../../src/chain/protocols/aavePoolAbi';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { ADMIN_TOKEN, type Json, type TestServer } from '../../helpers/server';
import { startOwnSandboxServer, type OwnSandboxServer } from '../../helpers/ownSandbox';
import { sandboxChain } from '../../setup/sandbox';
import { decimal, feeOf, intentHttp, usdc, type IntentHttp } from './intentsHttpHelpers';

/**
 * Earnings count only what the service supplied, grown by the protocol's
 * index, on devnets of this suite's own (it moves their clocks, which other
 * suites' bounds on interest would feel): a third party's Aave
 * `supply(onBehalfOf = the wallet)` is `external`, not interest; a rebalance
 * carries the principal and the interest over to the new position (the
 * principal is what the user supplied less the move's fee, the interest stays
 * earned); a standing intent's earnings add the interest of every market the
 * asset was in, net of its moves' costs.
 */

let own: OwnSandboxServer | undefined;
let srv: TestServer;
let key: string;
let api: IntentHttp;

/** The fast bridge fee of this suite's sandbox. */
const FEE_BPS = 5;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  own = await startOwnSandboxServer({ SANDBOX_ACCOUNT_MODEL: 'plain' }, { feeBps: FEE_BPS });
  srv = own.srv;
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
  api = intentHttp(srv, key);
}, 90_000);
afterAll(async () => {
  await own?.stop();
});

interface PositionFigures {
  balance: bigint;
  principal: bigint | null;
  earned: bigint | null;
  external: bigint | undefined;
}

/** The wallet's Aave USDC position on `chain` in the balance report (smallest units). */
function aaveOn(report: Json, chain: string): PositionFigures | undefined {
  const p = report.chains.find((c: Json) => c.chain === chain).positions.find((x: Json) => x.protocol === 'aave-v3' && x.asset === 'USDC');
  if (p === undefined) return undefined;
  return {
    balance: BigInt(p.balance),
    principal: p.principal === null ? null : usdc(p.principal),
    earned: p.earned === null ? null : usdc(p.earned),
    external: p.external === undefined ? undefined : usdc(p.external),
  };
}

/** The position once `until` holds (the ledger's hook records a step just after it completes). */
async function positionWhen(walletId: string, chain: string, until: (p: PositionFigures) => boolean): Promise<PositionFigures> {
  let last: PositionFigures | undefined;
  for (let i = 0; i < 100; i++) {
    last = aaveOn(await api.balances(walletId), chain);
    if (last && until(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`position on ${chain} never matched: ${JSON.stringify(last)}`);
}

async function moveTime(chain: string, days: number): Promise<void> {
  const r = await srv.rest('POST', '/admin/sandbox/time', { key: ADMIN_TOKEN, body: { chain, seconds: days * 86_400 } });
  expect(r.status).toBe(200);
}

/** A third party (a fresh account with gas and USDC) supplies `amount` USDC to `chain`'s Aave pool on behalf of `onBehalfOf`. */
async function supplyOnBehalf(chain: 'base-sepolia' | 'ethereum-sepolia', onBehalfOf: string, amount: string): Promise<void> {
  const d = sandboxChain(own!.sandbox.manifest, chain);
  const account = privateKeyToAccount(generatePrivateKey());
  const viemChain = viemChainFor(chain, d.rpcUrl);
  const transport = http(d.rpcUrl, { retryCount: 0 });
  const reader = createPublicClient({ chain: viemChain, transport, pollingInterval: 20 });
  await reader.request({ method: 'hardhat_setBalance' as never, params: [account.address, '0xde0b6b3a7640000'] as never });
  await api.mint(chain, account.address, amount);
  const writer = createWalletClient({ account, chain: viemChain, transport });
  const units = usdc(amount);
  const approve = await writer.writeContract({ address: d.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'approve', args: [d.aavePool!, units] });
  await reader.waitForTransactionReceipt({ hash: approve });
  const supply = await writer.writeContract({
    address: d.aavePool!,
    abi: sandboxPoolAbi,
    functionName: 'supply',
    args: [d.tokens.USDC!, units, onBehalfOf as Address, 0],
  });
  expect((await reader.waitForTransactionReceipt({ hash: supply })).status).toBe('success');
}

test('behavior: a third party supplies 1000 USDC to Aave on behalf of the wallet → not interest: earned stays what the index grew the 100 supplied by, the 1000 is external', async () => {
  const w = await api.fundedWallet('external', { 'base-sepolia': '100' });
  expect((await api.run({ walletId: w.id, action: 'lend', amount: '100', chain: 'base-sepolia' })).status).toBe('completed');
  await moveTime('base-sepolia', 30);
  const grown = await positionWhen(w.id, 'base-sepolia', (p) => p.principal !== null);
  expect(grown.principal).toBe(usdc('100'));
  expect(grown.earned!).toBeGreaterThan(usdc('0.2'));
  expect(grown.external).toBe(0n);

  await supplyOnBehalf('base-sepolia', w.address, '1000');

  const after = aaveOn(await api.balances(w.id), 'base-sepolia')!;
  expect(after.balance).toBeGreaterThanOrEqual(grown.balance + usdc('1000'));
  expect(after.principal).toBe(usdc('100'));
  // the index moved by a few seconds at most between the two reads
  expect(after.earned!).toBeGreaterThanOrEqual(grown.earned!);
  expect(after.earned! - grown.earned!).toBeLessThan(usdc('0.001'));
  expect(after.external!).toBeGreaterThanOrEqual(usdc('1000') - 1n);
  expect(after.external! - usdc('1000')).toBeLessThan(usdc('0.001'));
  expect(after.principal! + after.earned! + after.external!).toBe(after.balance);
}, 120_000);

test('behavior: a whole position rebalanced → the new position keeps the principal (less the fee) and the interest stays earned; the standing intent earns every market’s interest net of the move, and a third party’s supply is external, not interest', async () => {
  const w = await api.fundedWallet('carried', { 'arbitrum-sepolia': '10000' });
  const standing = await srv.rest('POST', '/v1/standing-intents', { key, body: { walletId: w.id, asset: 'USDC', minGainUsd: 1_000_000 } });
  expect(standing.status).toBe(201);
  expect((await api.run({ walletId: w.id, action: 'lend', amount: '10000', chain: 'arbitrum-sepolia' })).status).toBe('completed');
  await moveTime('arbitrum-sepolia', 90);
  const source = await positionWhen(w.id, 'arbitrum-sepolia', (p) => p.principal !== null);
  expect(source.principal).toBe(usdc('10000'));
  expect(source.earned!).toBeGreaterThan(usdc('50'));

  const moved = source.balance;
  const rebalance = await api.run({
    walletId: w.id,
    action: 'rebalance',
    amount: decimal(moved),
    toChain: 'ethereum-sepolia',
    toProtocol: 'aave-v3',
    sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: decimal(moved) }],
  });
  expect(rebalance.status).toBe('completed');
  const fee = feeOf(moved, FEE_BPS);
  const target = await positionWhen(w.id, 'ethereum-sepolia', (p) => p.principal !== null);
  // the interest moved with the funds stays earned; the principal is the 10000 supplied, less the fee the move paid
  // (less what the interest-first rule leaves on the source: interest accrued between the read of `moved` and the withdraw)
  const left = aaveOn(await api.balances(w.id), 'arbitrum-sepolia');
  expect((left?.principal ?? 0n) + target.principal!).toBe(usdc('10000') - fee);
  expect(left?.principal ?? 0n).toBeLessThan(usdc('0.01'));
  expect(target.earned!).toBeGreaterThanOrEqual(moved - usdc('10000'));
  expect(target.earned! - (moved - usdc('10000'))).toBeLessThan(usdc('0.01'));
  expect(target.external).toBe(0n);

  const earnings = async (): Promise<Json> => (await srv.rest('GET', `/v1/standing-intents/${standing.body.id}/earnings`, { key })).body;
  const before = await earnings();
  expect(before.moves).toBe(1);
  expect(usdc(before.earned)).toBeGreaterThanOrEqual(moved - usdc('10000'));
  expect(usdc(before.principal)).toBe(usdc('10000') - fee);
  expect(before.movesCostUsd).toBeGreaterThanOrEqual(Number(decimal(fee)));
  expect(before.netUsd).toBeCloseTo(before.earnedUsd - before.movesCostUsd, 6);
  expect(before.netUsd).toBeGreaterThan(0);

  await supplyOnBehalf('ethereum-sepolia', w.address, '1000');
  const after = await earnings();
  expect(usdc(after.earned) - usdc(before.earned)).toBeLessThan(usdc('0.01'));
  expect(usdc(after.external)).toBeGreaterThanOrEqual(usdc('1000') - 1n);
  expect(after.netUsd - before.netUsd).toBeLessThan(0.01);
  const gql = await srv.gql(`{ standingIntent(id: "${standing.body.id}") { earnings { earned external } } }`, undefined, key);
  expect(gql.body.data?.standingIntent?.earnings?.external).toBe(after.external);
}, 180_000);
