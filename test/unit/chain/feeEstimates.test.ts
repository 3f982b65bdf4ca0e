import { createPublicClient, custom, type PublicClient } from 'viem';
import { FaultRegistry } from '../../../src/domain/sandboxFaults';
import { createChainAccess } from '../../../src/chain/viem/chainAccess';
import type { ChainClient } from '../../../src/chain/viem/chainClients';
import { createFeeEstimates } from '../../../src/chain/viem/feeEstimates';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';

/** A chain whose base fee is `baseFee.gwei` (read at each request), counting the fee reads (eth_getBlockByNumber). */
function feeChain() {
  const state = { gwei: 1n, blockReads: 0 };
  const block = () => ({
    number: '0x1',
    hash: `0x${'11'.repeat(32)}`,
    parentHash: `0x${'00'.repeat(32)}`,
    baseFeePerGas: `0x${(state.gwei * 10n ** 9n).toString(16)}`,
    timestamp: '0x1',
    transactions: [],
    gasLimit: '0x1c9c380',
    gasUsed: '0x0',
  });
  const transport = custom({
    request: async ({ method }: { method: string }) => {
      if (method === 'eth_getBlockByNumber') {
        state.blockReads++;
        return block();
      }
      if (method === 'eth_maxPriorityFeePerGas') return '0x1';
      throw new Error(`unexpected ${method}`);
    },
  });
  const chain = viemChainFor('base-sepolia', 'http://127.0.0.1:1');
  const client = createPublicClient({ chain, transport }) as PublicClient;
  const faults = new FaultRegistry();
  const clients = new Map([['base-sepolia' as const, { name: 'base-sepolia', chain, client, deployment: {} } as unknown as ChainClient]]);
  return { state, faults, access: createChainAccess(clients, faults) };
}

test('behavior: a young estimate answers without a read; an aged one is refreshed in the background; one past the cap is read again first', async () => {
  const c = feeChain();
  let t = 0;
  const fees = createFeeEstimates(c.access, { refreshMs: 100, maxAgeMs: 300, now: () => t });
  const first = await fees.get('base-sepolia');
  expect(c.state.blockReads).toBe(1);
  expect(first.maxFeePerGas).toBe((10n ** 9n * 12n) / 10n + 1n);

  c.state.gwei = 2n;
  t = 50;
  expect(await fees.get('base-sepolia')).toEqual(first);
  expect(c.state.blockReads).toBe(1);

  t = 150; // aged: the held estimate answers, the new base fee is read behind it
  expect(await fees.get('base-sepolia')).toEqual(first);
  await new Promise((r) => setTimeout(r, 10));
  expect(c.state.blockReads).toBe(2);
  const refreshed = await fees.get('base-sepolia');
  expect(refreshed.maxFeePerGas).toBe((2n * 10n ** 9n * 12n) / 10n + 1n);

  c.state.gwei = 5n;
  t = 150 + 300; // past the cap: never signed with, the caller waits for the fresh one
  expect((await fees.get('base-sepolia')).maxFeePerGas).toBe((5n * 10n ** 9n * 12n) / 10n + 1n);
  expect(c.state.blockReads).toBe(3);
});

test('behavior: concurrent callers share one read; warm() reads ahead of the first send', async () => {
  const c = feeChain();
  const fees = createFeeEstimates(c.access, { refreshMs: 1_000, maxAgeMs: 3_000 });
  fees.warm('base-sepolia');
  const all = await Promise.all([fees.get('base-sepolia'), fees.get('base-sepolia'), fees.get('base-sepolia')]);
  expect(c.state.blockReads).toBe(1);
  expect(new Set(all.map((f) => f.maxFeePerGas)).size).toBe(1);
});

test('error: an injected transport fault fails a caller that must read, and a background refresh never consumes it', async () => {
  const c = feeChain();
  let t = 0;
  const fees = createFeeEstimates(c.access, { refreshMs: 100, maxAgeMs: 300, now: () => t });
  c.faults.register('base-sepolia', 'rpc-error', 1);
  await expect(fees.get('base-sepolia')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  await fees.get('base-sepolia');
  c.faults.register('base-sepolia', 'rpc-error', 1);
  t = 150;
  await fees.get('base-sepolia'); // held, refreshed in the background
  await new Promise((r) => setTimeout(r, 10));
  expect(c.state.blockReads).toBe(2);
  expect(c.faults.take('base-sepolia', 'rpc-error')).toBe(true);
});
