import { startDevnets, type Devnets } from '../../../src/chain/sandbox/devnets';
import { SANDBOX_ADDRESSES } from '../../../src/chain/sandbox/accounts';
import { startTestServer, type TestServer } from '../../helpers/server';

/**
 * A devnet mines one block per transaction; each block used to be one second
 * later than the last, so a busy minute pushed the chain's clock minutes into
 * the future (and x402 payments signed with the wall clock expired on it).
 * Blocks now take the wall clock's second, sharing it when needed.
 */
let devnets: Devnets;
let url: string;

beforeAll(async () => {
  devnets = await startDevnets({ chains: ['base-sepolia'] });
  url = devnets.chains['base-sepolia']!.rpcUrl;
}, 60_000);
afterAll(() => devnets?.stop());

async function rpc<T>(body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as T;
}

test('behavior: 500 transactions mined in a burst leave the latest block within 2 s of the wall clock, one block each', async () => {
  const from = SANDBOX_ADDRESSES.faucet;
  const start = await rpc<{ result: string }>({ jsonrpc: '2.0', id: 0, method: 'eth_getTransactionCount', params: [from, 'pending'] });
  const first = Number(start.result);
  // One send after another (the node refuses a nonce ahead of its pending one while automining): each is mined into its own block.
  for (let i = 0; i < 500; i++) {
    const answer = await rpc<{ error?: { message: string } }>({
      jsonrpc: '2.0',
      id: i,
      method: 'eth_sendTransaction',
      params: [{ from, to: SANDBOX_ADDRESSES.gasTank, value: '0x1', nonce: `0x${(first + i).toString(16)}` }],
    });
    expect(answer.error).toBeUndefined();
  }
  const latest = await rpc<{ result: { number: string; timestamp: string } }>({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_getBlockByNumber',
    params: ['latest', false],
  });
  expect(Number(latest.result.number)).toBeGreaterThanOrEqual(500);
  const offset = Number(latest.result.timestamp) - Date.now() / 1000;
  expect(Math.abs(offset)).toBeLessThanOrEqual(2);
}, 120_000);

describe('the service reports each chain clock', () => {
  let srv: TestServer;
  beforeAll(async () => {
    // Its own sandbox: other files move the shared chains' clocks on purpose (POST /admin/sandbox/time).
    srv = await startTestServer({ SANDBOX_MANIFEST: '' });
  }, 60_000);
  afterAll(() => srv?.stop());

  test('behavior: /readyz gives each chain its offset from the wall clock, and /metrics the chain_clock_offset_seconds gauge', async () => {
    const ready = await srv.rest('GET', '/readyz');
    expect(ready.status).toBe(200);
    const clocks = ready.body.checks.chainClocks as Record<string, { offsetSeconds: number; blockTimestamp: number }>;
    expect(Object.keys(clocks).sort()).toEqual(['arbitrum-sepolia', 'base-sepolia', 'ethereum-sepolia']);
    expect(Math.abs(clocks['base-sepolia']!.offsetSeconds)).toBeLessThanOrEqual(2);
    const metrics = await fetch(`${srv.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/chain_clock_offset_seconds\{chain="base-sepolia"\} -?[0-2]\b/);
  }, 60_000);
});
