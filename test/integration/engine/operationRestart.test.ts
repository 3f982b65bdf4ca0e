import { randomBytes } from 'node:crypto';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { startTestServer, type TestServer } from '../../helpers/server';
import { intentHttp, usdc, type IntentHttp } from './intentsHttpHelpers';
import type { ChainPort } from '../../../src/ports/chain';
import { createKeyVault } from '../../../src/chain/keyVault';
import type { AccountModel, ChainName } from '../../../src/domain/chains';
import type { Intent } from '../../../src/domain/intent';
import { pendingIntent, walletRecord } from '../../unit/engine/intentFixture';
import { createSystemClock } from '../../../src/domain/clock';
import { createEngine } from '../../../src/engine/engine';
import { silentLogger } from '../../../src/engine/engineLogger';
import { isFinal } from '../../../src/domain/intentStateMachine';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { isSubTxRecord } from '../../../src/domain/txRecords';

/**
 * User operations across an engine restart, on the service's own devnets
 * (a stall is global to a devnet): an operation signed and waiting in the
 * mempool when its engine stops is followed by the next engine and lands
 * once; funds lent through an operation are withdrawn on the plain path when
 * the chain's account model is plain at the withdraw's planning.
 */

let srv: TestServer;
let api: IntentHttp;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: '', SANDBOX_ACCOUNT_MODEL: '7702' });
  api = intentHttp(srv, (await srv.admin.createAccount({ plan: 'enterprise' })).key);
}, 90_000);
afterAll(() => srv?.stop());

const rpcUrl = (chain: ChainName): string => srv.service.chains.manifest.chains[chain]!.rpcUrl;
const client = (chain: ChainName) => createPublicClient({ transport: http(rpcUrl(chain), { retryCount: 0 }) });

/** A wallet of a fresh engine's own store and key vault, holding `amount` USDC on `chain`. */
async function engineWallet(chain: ChainName, amount: string) {
  const store = createMemoryStore();
  const keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
  const id = `svc_wallet_${randomBytes(16).toString('hex')}`;
  const address = await keyVault.createKey(id);
  await store.wallets.insert(walletRecord(id, address, 'acct_ops'));
  await api.mint(chain, address, amount);
  return { store, keyVault, id, address };
}

function intentOf(walletId: string, fields: Partial<Intent>): Intent {
  const now = new Date().toISOString();
  return pendingIntent({ id: `intent_${randomBytes(16).toString('hex')}`, accountId: 'acct_ops', walletId, createdAt: now, updatedAt: now, ...fields });
}

async function finalOf(store: ReturnType<typeof createMemoryStore>, id: string): Promise<Intent | null> {
  let done: Intent | null = null;
  for (let n = 0; n < 300 && !(done && isFinal(done.status)); n++) {
    await new Promise((r) => setTimeout(r, 100));
    done = await store.intents.get(id);
  }
  return done;
}

const engineOptions = (store: ReturnType<typeof createMemoryStore>, keyVault: ReturnType<typeof createKeyVault>, chains: ChainPort) => ({
  store,
  chains,
  keyVault,
  clock: createSystemClock(),
  logger: silentLogger,
  txStuckAfterMs: 2_000,
  retry: { baseMs: 50, inFlightMaxMs: 500 },
});

test('behavior: a restart while an operation waits in the mempool → the next engine follows the same bundle; the operation lands once', async () => {
  const { store, keyVault, id, address } = await engineWallet('arbitrum-sepolia', '3');
  const real = srv.service.chains.port;
  let operations = 0;
  let stalled = false;
  // the chain stops mining just as the operation is sent
  const port: ChainPort = {
    ...real,
    sendOperation: async (wallet, chain, calls, onSigned) => {
      operations++;
      if (!stalled) {
        stalled = true;
        await srv.service.chains.controls!.stall(chain, 6);
      }
      return real.sendOperation!(wallet, chain, calls, onSigned);
    },
  };
  const intent = intentOf(id, { action: 'lend', amount: '3', requestedAmount: '3', chain: 'arbitrum-sepolia' });
  await store.intents.insert(intent);
  const first = createEngine(engineOptions(store, keyVault, port));
  await first.submit(intent);
  const signedOp = async () => (await store.intents.get(intent.id))?.results?.transactions.find((t) => isSubTxRecord(t) && t.operation !== undefined);
  for (let n = 0; n < 500 && !(await signedOp()); n++) await new Promise((r) => setTimeout(r, 20));
  const bundle = (await signedOp())?.txHash as Hex | undefined;
  expect(bundle).toMatch(/^0x[0-9a-f]{64}$/);
  await first.stop();
  expect((await store.intents.get(intent.id))?.status).toBe('executing');

  const second = createEngine(engineOptions(store, keyVault, port));
  try {
    expect((await second.start()).resumed).toBe(1);
    const done = await finalOf(store, intent.id);
    expect(done?.status).toBe('completed');
    // one operation was ever built and signed: the second engine followed its bundle
    expect(operations).toBe(1);
    const hashes = new Set(done!.results!.transactions.map((t) => t.txHash));
    expect(hashes.size).toBe(1);
    const [held] = await real.holdings(address, ['arbitrum-sepolia']);
    expect(held?.positions.reduce((s, p) => s + p.amount, 0n)).toBeGreaterThanOrEqual(usdc('3') - 1n);
    expect(await client('arbitrum-sepolia').getBalance({ address: address as Address })).toBe(0n);
  } finally {
    await second.stop();
  }
}, 90_000);

test('behavior: funds lent through an operation are withdrawn on the plain path (the chain plain at the withdraw): a signed transaction of the delegated wallet, topped up with gas', async () => {
  const { store, keyVault, id, address } = await engineWallet('base-sepolia', '4');
  const real = srv.service.chains.port;
  const engine = createEngine(engineOptions(store, keyVault, real));
  const lend = intentOf(id, { action: 'lend', amount: '4', requestedAmount: '4', chain: 'base-sepolia' });
  try {
    await store.intents.insert(lend);
    await engine.submit(lend);
    const lent = await finalOf(store, lend.id);
    expect(lent?.status).toBe('completed');
    expect(lent?.accountModels).toEqual({ 'base-sepolia': '7702' });
    expect(lent!.results!.transactions.every((t) => isSubTxRecord(t) && t.operation !== undefined)).toBe(true);
  } finally {
    await engine.stop();
  }
  const [position] = (await real.holdings(address, ['base-sepolia']))[0]!.positions;
  expect(position).toBeDefined();

  const plain: ChainPort = { ...real, accountModel: (): AccountModel => 'plain' };
  const later = createEngine(engineOptions(store, keyVault, plain));
  const withdraw = intentOf(id, { action: 'withdraw', amount: '4', requestedAmount: '4', chain: 'base-sepolia' });
  try {
    await store.intents.insert(withdraw);
    await later.submit(withdraw);
    const done = await finalOf(store, withdraw.id);
    expect(done?.status).toBe('completed');
    expect(done?.accountModels).toBeUndefined();
    expect(done!.results!.transactions.map((t) => [isSubTxRecord(t) && t.kind, isSubTxRecord(t) && t.operation])).toEqual([['withdraw', undefined]]);
    const [after] = await real.holdings(address, ['base-sepolia']);
    expect(after?.tokens.find((t) => t.asset === 'USDC')?.balance).toBeGreaterThanOrEqual(usdc('4') - 1n);
    // the plain path topped the wallet up with native gas for its own transaction
    expect(await client('base-sepolia').getBalance({ address: address as Address })).toBeGreaterThan(0n);
  } finally {
    await later.stop();
  }
}, 90_000);
