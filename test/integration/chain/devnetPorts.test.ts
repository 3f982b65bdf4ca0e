import { startDevnets, type Devnets } from '../../../src/chain/sandbox/devnets';

/**
 * Devnets bind port 0 and report the port they got, so starting many at once
 * (here two sets of three, as parallel test files and a second service do)
 * never races for a port picked as free and then taken.
 */
const started: Devnets[] = [];
afterAll(async () => {
  await Promise.all(started.map((d) => d.stop()));
});

test('behavior: two sets of devnets started at once all come up on distinct ports, each answering its own chain id', async () => {
  const sets = await Promise.all([0, 1].map(() => startDevnets({ chains: ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'] })));
  started.push(...sets);
  const urls = sets.flatMap((s) => Object.values(s.chains).map((c) => c!.rpcUrl));
  expect(urls).toHaveLength(6);
  expect(new Set(urls).size).toBe(6);
  for (const s of sets) {
    for (const c of Object.values(s.chains)) {
      expect(c!.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(c!.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      expect(Number(((await res.json()) as { result: string }).result)).toBe(c!.chainId);
    }
  }
}, 60_000);
