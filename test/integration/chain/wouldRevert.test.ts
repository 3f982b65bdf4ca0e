import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createPublicClient, http } from 'viem';
import { startChains, type RunningChains } from '../../../src/chain/startChains';
import { WouldRevertError, type SignedTx } from '../../../src/ports/chain';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { loadSandboxManifest, sandboxChain } from '../../setup/sandbox';

/**
 * On the real devnets: a transaction whose gas estimation reverts is neither
 * signed nor sent (before, it went out with a 1M gas limit and burned gas).
 */
let chains: RunningChains;
beforeAll(async () => {
  chains = await startChains({ chainMode: 'sandbox', sandboxManifestPath: process.env.SANDBOX_MANIFEST, sandboxBlockTimeMs: 0, rpcUrls: {} });
});
afterAll(async () => {
  await chains?.stop();
});

test('error: a withdraw beyond the position (and a supply beyond the balance) throw WouldRevertError with the reason: nothing signed, the wallet nonce unchanged', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const d = sandboxChain(loadSandboxManifest(), 'base-sepolia');
  const client = createPublicClient({ chain: viemChainFor('base-sepolia', d.rpcUrl), transport: http(d.rpcUrl) });
  const signed: SignedTx[] = [];
  const onSigned = async (s: SignedTx) => void signed.push(s);

  const withdraw = chains.port.send(wallet, { kind: 'withdraw', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: 5_000_000n }, onSigned);
  await expect(withdraw).rejects.toBeInstanceOf(WouldRevertError);
  await expect(withdraw).rejects.toMatchObject({ chain: 'base-sepolia', kind: 'withdraw', reason: expect.any(String) });
  const supply = chains.port.send(wallet, { kind: 'supply', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: 5_000_000n }, onSigned);
  await expect(supply).rejects.toBeInstanceOf(WouldRevertError);

  expect(signed).toEqual([]);
  expect(await client.getTransactionCount({ address: wallet.address })).toBe(0);
});
