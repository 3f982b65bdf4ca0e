import { createPublicClient, http, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ChainPort, SignedTx, TxRequest } from '../../../src/ports/chain';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS } from '../../../src/chain/sandbox/accounts';
import { startSandbox, type Sandbox } from '../../../src/chain/sandbox/sandbox';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { createViemChainPort } from '../../../src/chain/viem/createViemChainPort';
import { nonceKey } from '../../../src/chain/viem/sharedNonces';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import type { NonceRepo } from '../../../src/ports/store';

/**
 * Three chain ports over one devnet stand for three instances sharing the gas
 * tank (top-ups, and relaying as 'relayer'). With one nonce allocator between
 * them no two of their transactions share a nonce; without it they collide
 * and re-sign. The devnet is this file's own: no other suite spends its tank
 * or its faucet.
 */

const CHAIN = 'base-sepolia';
const TANK = SANDBOX_ADDRESSES.gasTank;
const LOAD = 60;

let sandbox: Sandbox;
let open: ChainPort[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ chains: [CHAIN] });
}, 60_000);

afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});

afterAll(async () => {
  await sandbox?.stop();
});

const rpc = () => {
  const url = sandbox.manifest.chains[CHAIN]!.rpcUrl;
  return createPublicClient({ chain: viemChainFor(CHAIN, url), transport: http(url, { retryCount: 0 }), pollingInterval: 20 });
};
const tankNonce = () => rpc().getTransactionCount({ address: TANK, blockTag: 'pending' });

/** `count` ports like three instances would build them, sharing `nonces` when given; `retries` collects onNonceRetry. */
function instances(count: number, nonces?: NonceRepo, nonceGapMs?: number) {
  const retries: Address[] = [];
  const ports = Array.from({ length: count }, () =>
    createViemChainPort({
      manifest: sandbox.manifest,
      keys: { gasTank: SANDBOX_KEYS.gasTank, faucet: SANDBOX_KEYS.faucet },
      pollingIntervalMs: 20,
      minGasWei: parseEther('0.001'),
      topUpWei: parseEther('0.003'),
      nonces: nonces && (() => nonces),
      nonceGapMs,
      onNonceRetry: (_chain, address) => retries.push(address),
    }),
  );
  open.push(...ports);
  return { ports, retries };
}

const approve = (amount: bigint): TxRequest => ({ kind: 'approve', chain: CHAIN, asset: 'USDC', spender: 'aave-v3', amount });

/**
 * `LOAD` gas-tank transactions spread over the ports at once: even ones are a
 * fresh wallet's first send (the port tops it up from the tank first), odd
 * ones an approval the relayer signs. Resolves with each send's outcome.
 */
function tankLoad(ports: ChainPort[]): Promise<PromiseSettledResult<SignedTx>[]> {
  return Promise.allSettled(
    Array.from({ length: LOAD }, (_, i) => {
      const port = ports[i % ports.length]!;
      const signer = i % 2 === 0 ? privateKeyToAccount(generatePrivateKey()) : 'relayer';
      return port.send(signer, approve(BigInt(i + 1)), async () => undefined);
    }),
  );
}

test('behavior: three instances sharing one allocator send 60 gas-tank transactions at once, every one lands and no nonce is used twice', async () => {
  const { ports, retries } = instances(3, createMemoryStore().nonces);
  const before = await tankNonce();

  const outcomes = await tankLoad(ports);

  const failed = outcomes.filter((r) => r.status === 'rejected');
  expect(failed).toEqual([]);
  const sent = outcomes.map((r) => (r as PromiseFulfilledResult<SignedTx>).value);
  const receipts = await Promise.all(sent.map((s) => rpc().waitForTransactionReceipt({ hash: s.txHash })));
  expect(receipts.every((r) => r.status === 'success')).toBe(true);
  // every top-up and relayed approval is one tank transaction: the nonce moved by exactly their number
  expect((await tankNonce()) - before).toBe(LOAD);
  const relayed = sent.filter((s) => s.from === TANK);
  expect(new Set(relayed.map((s) => s.nonce)).size).toBe(LOAD / 2);
  expect(retries).toEqual([]);
}, 30_000);

test('behavior: without the allocator the same load collides on the tank nonce (what the allocator fixes)', async () => {
  const { ports, retries } = instances(3);
  const outcomes = await tankLoad(ports);
  const failed = outcomes.filter((r) => r.status === 'rejected').length;
  const tankRetries = retries.filter((a) => a === TANK).length;
  console.log(`without allocator: ${tankRetries} tank nonce retries, ${failed}/${LOAD} sends failed`);
  // three ports start at once from one pending nonce: 26 to 36 retries over five runs, some sends failing outright
  expect(tankRetries).toBeGreaterThan(0);
}, 30_000);

test.each([
  ['relayer', TANK],
  ['faucet', SANDBOX_ADDRESSES.faucet],
] as const)(
  'behavior: a %s nonce taken and never sent holds the next send for about gapMs, which then fills the gap and lands',
  async (signer, address) => {
    const gapMs = 400;
    const nonces = createMemoryStore().nonces;
    const { ports, retries } = instances(1, nonces, gapMs);
    const [port] = ports;
    const key = nonceKey(sandbox.manifest.chains[CHAIN]!.chainId, address);
    // an instance took this nonce and died before sending it
    const lost = await nonces.take(key, await rpc().getTransactionCount({ address, blockTag: 'pending' }), Date.now(), gapMs);

    const started = Date.now();
    const filler = await port!.send(signer, approve(1n), async () => undefined);
    const waited = Date.now() - started;
    expect(filler.nonce).toBe(lost);
    expect(waited).toBeGreaterThanOrEqual(gapMs * 0.8);
    expect(waited).toBeLessThan(gapMs + 3_000);
    expect((await rpc().waitForTransactionReceipt({ hash: filler.txHash })).status).toBe('success');

    // re-synchronised: the next send takes the following nonce without waiting
    const nextStarted = Date.now();
    const next = await port!.send(signer, approve(2n), async () => undefined);
    expect(next.nonce).toBe(lost + 1);
    expect(Date.now() - nextStarted).toBeLessThan(gapMs);
    expect(retries).toEqual([]);
  },
  30_000,
);
