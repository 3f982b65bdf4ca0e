import { HttpRequestError, RpcRequestError, TimeoutError, createPublicClient, custom } from 'viem';
import { observedTransport, rpcErrorKind, type RpcCall } from '../../../src/chain/viem/observedTransport';

/** A client over a transport that answers (or fails) as `answer` says, observed. */
function clientOver(answer: (method: string) => unknown) {
  const calls: RpcCall[] = [];
  const transport = custom({ request: async ({ method }: { method: string }) => answer(method) }, { retryCount: 0 });
  const client = createPublicClient({ transport: observedTransport(transport, 'base-sepolia', (c) => calls.push(c)) });
  return { client, calls };
}

test('behavior: every request is reported with its chain, method and duration; a result carries no error', async () => {
  const { client, calls } = clientOver((method) => (method === 'eth_blockNumber' ? '0x10' : '0x1'));
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(16n);
  expect(await client.getChainId()).toBe(1);
  expect(calls.map((c) => [c.chain, c.method, c.error])).toEqual([
    ['base-sepolia', 'eth_blockNumber', undefined],
    ['base-sepolia', 'eth_chainId', undefined],
  ]);
  expect(calls.every((c) => c.seconds >= 0 && c.seconds < 5)).toBe(true);
});

test('error: a failed request is reported with its kind and still fails the call', async () => {
  const { client, calls } = clientOver(() => {
    throw new HttpRequestError({ url: 'http://127.0.0.1:1', details: 'fetch failed' });
  });
  await expect(client.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
  expect(calls.map((c) => [c.method, c.error])).toEqual([['eth_blockNumber', 'network']]);
});

test('error: kinds — timeout, network, revert, other JSON-RPC errors', () => {
  expect(rpcErrorKind(new TimeoutError({ body: {}, url: 'http://x' }))).toBe('timeout');
  expect(rpcErrorKind(new HttpRequestError({ url: 'http://x' }))).toBe('network');
  expect(rpcErrorKind(new RpcRequestError({ body: {}, url: 'http://x', error: { code: 3, message: 'execution reverted: no' } }))).toBe('revert');
  expect(rpcErrorKind(new RpcRequestError({ body: {}, url: 'http://x', error: { code: -32601, message: 'method not found' } }))).toBe('rpc');
  expect(rpcErrorKind(new Error('connect ECONNREFUSED 127.0.0.1:8545'))).toBe('network');
});

test('behavior: an observer that throws never fails the call', async () => {
  const transport = custom({ request: async () => '0x5' });
  const client = createPublicClient({
    transport: observedTransport(transport, 'base-sepolia', () => {
      throw new Error('metrics broke');
    }),
  });
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(5n);
});
