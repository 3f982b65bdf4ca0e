/**
 * Where a user operation's gas goes: the same calls sent as plain
 * transactions by the wallet and as one ERC-4337 v0.8 operation (EIP-7702
 * wallet, bundled by the gas tank, paid by the paymaster), on the sandbox
 * devnets (instant mining), by the service's own chain port.
 *
 * Cases on ethereum-sepolia, each on fresh wallets (so storage starts alike):
 *  - approve alone: isolates the operation's own cost (its call is tiny);
 *  - approve + Aave supply (a no-bridge lend);
 *  - approve + depositForBurn (a bridge's source).
 * For the operation: the wallet's first one on the chain (its authorization in
 * the bundle, the EntryPoint nonce written the first time) and its second
 * (delegated already). For the plain path: each transaction's gas, and the
 * gas tank's top-up a fresh wallet needs first.
 *
 * Overhead of an operation = bundle gas − Σ (plain gas − 21,000) of its calls:
 * what handleOps, the account's and the paymaster's validation, the
 * authorization and the bundle's calldata add over the calls themselves.
 *
 * Run: npx ts-node --transpile-only bench/operationGas.ts
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { toHex, type Hex, type LocalAccount } from 'viem';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';
import type { ChainName } from '../src/domain/chains';
import type { TxRequest } from '../src/ports/chain';

const CHAIN: ChainName = 'ethereum-sepolia';
const AMOUNT = 5_000_000n;

async function main(): Promise<void> {
  console.log('command: npx ts-node --transpile-only bench/operationGas.ts');
  const svc = await startService(
    loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: 'bench-admin-token-123456', SANDBOX_ACCOUNT_MODEL: '7702', SANDBOX_MARKETS: 'all' }),
    createLogger('silent'),
  );
  try {
    const port = svc.chains.port;
    const controls = svc.chains.controls!;
    const client = svc.chains.client(CHAIN)!.client;
    const gasOf = async (hash: Hex): Promise<bigint> => (await client.getTransactionReceipt({ hash })).gasUsed;
    const fresh = async (): Promise<LocalAccount> => {
      const a = privateKeyToAccount(generatePrivateKey());
      await controls.mint({ chain: CHAIN, asset: 'USDC', address: a.address, amount: AMOUNT * 4n });
      return a;
    };
    const approve = (spender: 'aave-v3' | 'bridge'): TxRequest => ({ kind: 'approve', chain: CHAIN, asset: 'USDC', spender, amount: AMOUNT });
    const supply: TxRequest = { kind: 'supply', chain: CHAIN, protocol: 'aave-v3', asset: 'USDC', amount: AMOUNT };
    const burn: TxRequest = { kind: 'burn', chain: CHAIN, toChain: 'base-sepolia', amount: AMOUNT, maxFee: 0n, minFinalityThreshold: 2000 };

    /** Plain: each call its own transaction of the wallet (topped up first by the gas tank). */
    const plain = async (calls: TxRequest[]): Promise<{ each: bigint[]; topUp: bigint }> => {
      const wallet = await fresh();
      let topUpWei = 0n;
      const each: bigint[] = [];
      for (const tx of calls) {
        const signed = await port.send(
          wallet,
          tx,
          async () => undefined,
          (wei) => (topUpWei += wei),
        );
        await client.waitForTransactionReceipt({ hash: signed.txHash, pollingInterval: 20 });
        each.push(await gasOf(signed.txHash));
      }
      // the top-up's own gas: a plain transfer of the gas tank
      return { each, topUp: topUpWei > 0n ? 21_000n : 0n };
    };
    /** One operation of a fresh wallet, then a second one of the same calls (delegated by then). */
    const operations = async (calls: TxRequest[]): Promise<{ first: bigint; second: bigint; eth: bigint }> => {
      const wallet = await fresh();
      const run = async (): Promise<bigint> => {
        const signed = await port.sendOperation!(wallet, CHAIN, calls, async () => undefined);
        const r = await client.waitForTransactionReceipt({ hash: signed.txHash, pollingInterval: 20 });
        if (r.status !== 'success') throw new Error(`bundle ${signed.txHash} reverted`);
        return r.gasUsed;
      };
      const first = await run();
      const second = await run();
      return { first, second, eth: await client.getBalance({ address: wallet.address }) };
    };

    const cases: [string, TxRequest[]][] = [
      ['approve', [approve('aave-v3')]],
      ['approve + Aave supply', [approve('aave-v3'), supply]],
      ['approve + depositForBurn', [approve('bridge'), burn]],
    ];
    console.log(`chain ${CHAIN}; gas units; overhead = operation − Σ(plain − 21,000)`);
    console.log('| calls | plain txs (each) | plain + top-up | op, 1st (authorization) | op, 2nd | overhead 1st | overhead 2nd | 1st / plain+top-up |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [name, calls] of cases) {
      const p = await plain(calls);
      const o = await operations(calls);
      if (o.eth !== 0n) throw new Error(`the operation's wallet holds ${toHex(o.eth)} wei`);
      const sum = p.each.reduce((a, b) => a + b, 0n);
      const inner = sum - 21_000n * BigInt(p.each.length);
      const withTopUp = sum + p.topUp;
      console.log(
        `| ${name} | ${sum} (${p.each.join(' + ')}) | ${withTopUp} | ${o.first} | ${o.second} | ${o.first - inner} | ${o.second - inner} | ${(Number(o.first) / Number(withTopUp)).toFixed(3)}× |`,
      );
    }
  } finally {
    await svc.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
