import { keccak256, toHex, type Address, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CHAIN_NAMES, CHAINS, TOKEN_ASSETS, type AccountModel, type ChainName, type TokenAsset } from '../../src/domain/chains';
import {
  PROTOCOLS,
  SUPPLY_INDEX_ONE,
  WouldRevertError,
  type ChainPort,
  type MarketRate,
  type SignedTx,
  type TxReceipt,
  type TxRequest,
} from '../../src/ports/chain';
import { TYPICAL_GAS } from '../../src/ports/typicalGas';

/**
 * The ChainPort contract of src/ports/chain.ts: what the engine and the
 * use-cases may rely on from any implementation. Run on the viem adapter
 * over the sandbox devnets (chainPort.viem.test.ts) and on the two
 * in-process doubles, FakeChain and InstantChain
 * (test/unit/chain/chainPortDoubles.test.ts), so the doubles cannot drift
 * from the adapter. Every test signs with fresh wallets of its own, so the
 * tests share one port and may run on shared devnets.
 */

export interface ChainPortHarness {
  port: ChainPort;
  /** Credits `amount` of `asset` to `address` on `chain` (a faucet mint on devnets, a ledger entry in a double). */
  fund(chain: ChainName, address: Address, asset: TokenAsset, amount: bigint): Promise<void>;
  /**
   * Makes the next supply on `chain` revert once mined (the sandbox's
   * deposit-revert fault, a double's injected revert). Absent: the
   * implementation cannot make a transaction revert on chain after it passed
   * gas estimation, and the mined-revert test does not run.
   */
  revertNextSupply?(chain: ChainName): void;
  /** The account model the implementation was set up with per chain (missing: 'plain'). */
  accountModels?: Partial<Record<ChainName, AccountModel>>;
  close(): Promise<void>;
}

const USDC = (units: number): bigint => BigInt(Math.round(units * 1e6));
const randomHash = (): Hex => keccak256(toHex(`unknown ${Math.random()} ${Date.now()}`));
const fresh = (): LocalAccount => privateKeyToAccount(generatePrivateKey());
const keep = async (_: SignedTx): Promise<void> => undefined;
/** Long enough for a devnet to mine what was broadcast; a double answers at once. */
const MINED_WAIT_MS = 30_000;

export function describeChainPortContract(name: string, makeHarness: () => Promise<ChainPortHarness>): void {
  describe(`chain port contract: ${name}`, () => {
    let h: ChainPortHarness;
    let port: ChainPort;
    /** A USDC lending market of the port (the first rates() lists). */
    let market: MarketRate;
    beforeAll(async () => {
      h = await makeHarness();
      port = h.port;
      const usdcMarket = (await port.rates()).find((r) => r.asset === 'USDC');
      if (usdcMarket === undefined) throw new Error(`${name}: rates() lists no USDC market, the contract needs one`);
      market = usdcMarket;
    });
    afterAll(async () => {
      await h?.close();
    });

    /** A chain name of the domain that this port does not serve. */
    const unknownChain = (): ChainName => {
      const chain = CHAIN_NAMES.find((c) => !port.chains.includes(c));
      if (chain === undefined) throw new Error('the port serves every chain of the domain: no unknown chain to ask for');
      return chain;
    };
    /** Sends `tx` as `signer` and waits for its receipt. */
    const mined = async (signer: LocalAccount | 'relayer', tx: TxRequest): Promise<{ signed: SignedTx; receipt: TxReceipt }> => {
      const signed = await port.send(signer, tx, keep);
      const receipt = await port.findReceipt(tx.chain, [signed.txHash], MINED_WAIT_MS);
      if (receipt === null) throw new Error(`${tx.kind} ${signed.txHash} on ${tx.chain} not mined in ${MINED_WAIT_MS} ms`);
      return { signed, receipt };
    };
    const approve = (chain: ChainName, spender: 'bridge' | MarketRate['protocol'], amount: bigint): TxRequest => ({
      kind: 'approve',
      chain,
      asset: 'USDC',
      spender,
      amount,
    });
    const supply = (amount: bigint): TxRequest => ({ kind: 'supply', chain: market.chain, protocol: market.protocol, asset: 'USDC', amount });

    test('behavior: chains are distinct chain names of the domain', () => {
      expect(port.chains.length).toBeGreaterThan(0);
      expect(new Set(port.chains).size).toBe(port.chains.length);
      for (const c of port.chains) expect(CHAIN_NAMES).toContain(c);
    });

    test("behavior: accountModel() is each served chain's model as the deployment says ('plain' where it names none), and 'plain' for a chain it does not serve", () => {
      if (port.accountModel === undefined) return;
      for (const chain of port.chains) expect([chain, port.accountModel(chain)]).toEqual([chain, h.accountModels?.[chain] ?? 'plain']);
      expect(port.accountModel(unknownChain())).toBe('plain');
    });

    test("behavior: sendOperation() (a port that sends user operations, on a 7702 chain): approve + supply as one operation, the bundle handed to onSigned before the chain knows it; its receipt carries the operation's outcome; a batch whose supply would revert is WouldRevertError naming that call, nothing signed", async () => {
      const sendOperation = port.sendOperation?.bind(port);
      const rate = (await port.rates()).find((r) => r.asset === 'USDC' && h.accountModels?.[r.chain] === '7702');
      if (sendOperation === undefined || rate === undefined) return;
      const wallet = fresh();
      await h.fund(rate.chain, wallet.address, 'USDC', USDC(2));
      const calls: TxRequest[] = [
        approve(rate.chain, rate.protocol, USDC(1)),
        { kind: 'supply', chain: rate.chain, protocol: rate.protocol, asset: 'USDC', amount: USDC(1) },
      ];
      const handed: boolean[] = [];
      const op = await sendOperation(wallet, rate.chain, calls, async (s) => void handed.push(await port.isKnown(rate.chain, s.txHash)));
      expect(handed).toEqual([false]);
      expect(op).toMatchObject({ chain: rate.chain, opNonce: 0n, delegated: true, userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      const receipt = await port.findReceipt(rate.chain, [op.txHash], MINED_WAIT_MS);
      expect(receipt).toMatchObject({ status: 'success', operation: { userOpHash: op.userOpHash, success: true } });

      const signed: unknown[] = [];
      const refused = sendOperation(wallet, rate.chain, [calls[0]!, { ...calls[1]!, amount: USDC(5) } as TxRequest], async (s) => void signed.push(s));
      await expect(refused).rejects.toBeInstanceOf(WouldRevertError);
      await expect(refused).rejects.toMatchObject({ kind: 'supply', callIndex: 1 });
      expect(signed).toEqual([]);
    });

    test('behavior: rates() lists each market once: chain, protocol, asset, token, a finite apy, and sandboxOnly only when true', async () => {
      const rates = await port.rates();
      expect(rates.length).toBeGreaterThan(0);
      for (const r of rates) {
        expect(Object.keys(r).sort()).toEqual(['apy', 'asset', 'chain', 'protocol', 'token', ...('sandboxOnly' in r ? ['sandboxOnly'] : [])].sort());
        expect(port.chains).toContain(r.chain);
        expect(PROTOCOLS).toContain(r.protocol);
        expect(TOKEN_ASSETS).toContain(r.asset);
        expect(r.token).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(Number.isFinite(r.apy)).toBe(true);
        if ('sandboxOnly' in r) expect(r.sandboxOnly).toBe(true);
      }
      const markets = rates.map((r) => `${r.chain}|${r.protocol}|${r.token.toLowerCase()}`);
      expect(new Set(markets).size).toBe(markets.length);
    });

    test('behavior: holdings() answers each requested chain it serves once, in the order asked, with zero balances omitted; a chain it does not serve is left out', async () => {
      const nobody = fresh().address;
      const asked = [...port.chains].reverse();
      const holdings = await port.holdings(nobody, [...asked, unknownChain()]);
      expect(holdings).toEqual(asked.map((chain) => ({ chain, tokens: [], positions: [] })));
    });

    test("behavior: a token holding names its asset and token contract; a position its protocol, asset and the market's token", async () => {
      const wallet = fresh();
      await h.fund(market.chain, wallet.address, 'USDC', USDC(10));
      const [before] = await port.holdings(wallet.address, [market.chain]);
      expect(before!.tokens).toEqual([{ asset: 'USDC', token: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), balance: USDC(10) }]);
      expect(before!.positions).toEqual([]);

      await mined(wallet, approve(market.chain, market.protocol, USDC(4)));
      const { receipt } = await mined(wallet, supply(USDC(4)));
      expect(receipt.status).toBe('success');

      const [after] = await port.holdings(wallet.address, [market.chain]);
      expect(after!.tokens.find((t) => t.asset === 'USDC')).toEqual({ asset: 'USDC', token: before!.tokens[0]!.token, balance: USDC(6) });
      expect(after!.positions).toHaveLength(1);
      const position = after!.positions[0]!;
      const { index, ...fields } = position;
      expect(fields).toEqual({ protocol: market.protocol, asset: 'USDC', token: market.token, amount: expect.any(BigInt) });
      // the market's supply index, when the port reads it: at least 1 (ray), as the optional supplyIndex answers it
      if (index !== undefined) {
        expect(index).toBeGreaterThanOrEqual(SUPPLY_INDEX_ONE);
        if (port.supplyIndex) expect(await port.supplyIndex(market.chain, market.protocol, 'USDC')).toBeGreaterThanOrEqual(index);
      }
      // a lending market may round a share down by a unit, and accrues interest from the next block on
      expect(position.amount).toBeGreaterThanOrEqual(USDC(4) - 1n);
      expect(position.amount).toBeLessThanOrEqual(USDC(4) + USDC(4) / 1000n);
      for (const t of after!.tokens) if (t.asset === 'ETH') expect(t.token).toBeUndefined();
      for (const t of after!.tokens) expect(t.balance).toBeGreaterThan(0n);
    });

    test('behavior: routeFees() has both tiers of every route between two served chains of the same kind of network, none from a chain to itself', async () => {
      const fees = await port.routeFees();
      for (const from of port.chains) {
        expect(fees[from]?.[from]).toBeUndefined();
        for (const to of port.chains) {
          if (from === to || CHAINS[from].testnet !== CHAINS[to].testnet) continue;
          const tiers = fees[from]?.[to];
          expect(tiers).toEqual({ fast: expect.any(Number), standard: expect.any(Number) });
          expect(tiers!.fast).toBeGreaterThanOrEqual(0);
          expect(tiers!.standard).toBeGreaterThanOrEqual(0);
        }
      }
    });

    test("behavior: gasQuote() is a positive gas price in wei and the chain's ETH/USD, which priceUsd(ETH) answers too; stablecoins are 1.0", async () => {
      for (const chain of port.chains) {
        const quote = await port.gasQuote(chain);
        expect(quote).toEqual({ chain, gasPriceWei: expect.any(BigInt), ethUsd: expect.any(Number) });
        expect(quote.gasPriceWei).toBeGreaterThan(0n);
        expect(quote.ethUsd).toBeGreaterThan(0);
        expect(await port.priceUsd('ETH', chain)).toBe(quote.ethUsd);
        expect(await port.priceUsd('USDC', chain)).toBe(1);
      }
    });

    test('behavior: estimateGas() is a positive figure: a mint its typical one, a plain transaction estimated (or typical), one under assumed funds simulated (or typical); nothing is signed', async () => {
      const wallet = fresh();
      const other = port.chains.find((c) => c !== market.chain && CHAINS[c].testnet === CHAINS[market.chain].testnet) ?? market.chain;
      const mint = await port.estimateGas(wallet.address, { kind: 'mint', chain: other, message: '0x00', attestation: '0x00' });
      expect(mint).toEqual({ gas: TYPICAL_GAS.mint, method: 'typical' });

      const plain = await port.estimateGas(wallet.address, approve(market.chain, market.protocol, USDC(1)));
      expect(['estimated', 'typical']).toContain(plain.method);
      expect(plain.gas).toBeGreaterThan(0n);

      const assumed = await port.estimateGas(wallet.address, supply(USDC(1)), { asset: 'USDC', amount: USDC(1), spender: market.protocol });
      expect(['simulated', 'typical']).toContain(assumed.method);
      expect(assumed.gas).toBeGreaterThan(0n);

      // nothing was signed: the wallet's first transaction still takes nonce 0
      const signed = await port.send(wallet, approve(market.chain, market.protocol, USDC(1)), keep);
      expect(signed.nonce).toBe(0);
    });

    test('behavior: send() hands the signed transaction to onSigned before broadcasting it, then answers the same transaction; nonces count up per signer and chain', async () => {
      const wallet = fresh();
      const seen: { signed: SignedTx; knownThen: boolean }[] = [];
      const onSigned = async (s: SignedTx) => {
        seen.push({ signed: s, knownThen: await port.isKnown(s.chain, s.txHash) });
      };
      const first = await port.send(wallet, approve(market.chain, 'bridge', USDC(1)), onSigned);
      expect(first).toEqual({
        chain: market.chain,
        kind: 'approve',
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        from: wallet.address,
        nonce: 0,
        raw: expect.stringMatching(/^0x[0-9a-f]+$/),
      });
      expect(seen).toEqual([{ signed: first, knownThen: false }]);
      expect(await port.isKnown(market.chain, first.txHash)).toBe(true);

      const second = await port.send(wallet, approve(market.chain, 'bridge', USDC(2)), keep);
      expect(second.nonce).toBe(1);
      expect(second.txHash).not.toBe(first.txHash);
    });

    test("error: a refusal of onSigned is send()'s error; nothing is broadcast and the nonce is not spent", async () => {
      const wallet = fresh();
      const refusal = new Error('the store refused the hash');
      let refused: SignedTx | undefined;
      const failing = port.send(wallet, approve(market.chain, 'bridge', USDC(1)), async (s) => {
        refused = s;
        throw refusal;
      });
      await expect(failing).rejects.toBe(refusal);
      expect(refused).toBeDefined();
      expect(await port.isKnown(market.chain, refused!.txHash)).toBe(false);
      expect(await port.findReceipt(market.chain, [refused!.txHash], 0)).toBeNull();
      const next = await port.send(wallet, approve(market.chain, 'bridge', USDC(1)), keep);
      expect(next.nonce).toBe(refused!.nonce);
    });

    test('error: a transaction that would revert is refused with WouldRevertError before anything is signed', async () => {
      const wallet = fresh();
      const signed: SignedTx[] = [];
      const failing = port.send(wallet, supply(USDC(5)), async (s) => void signed.push(s));
      await expect(failing).rejects.toBeInstanceOf(WouldRevertError);
      await expect(failing).rejects.toMatchObject({ chain: market.chain, kind: 'supply', reason: expect.any(String) });
      expect(signed).toEqual([]);
    });

    test("behavior: a receipt carries status, gas used, its cost in wei and in USD at the chain's ETH price, and the block; no minted amount outside a mint", async () => {
      const wallet = fresh();
      const { signed, receipt } = await mined(wallet, approve(market.chain, 'bridge', USDC(1)));
      expect(receipt).toEqual({
        chain: market.chain,
        txHash: signed.txHash,
        status: 'success',
        gasUsed: expect.any(BigInt),
        gasCostWei: expect.any(BigInt),
        gasCostUsd: expect.any(Number),
        blockNumber: expect.any(BigInt),
      });
      expect(receipt.gasUsed).toBeGreaterThan(0n);
      expect(receipt.gasCostWei).toBeGreaterThanOrEqual(receipt.gasUsed);
      expect(receipt.blockNumber).toBeGreaterThan(0n);
      const ethUsd = await port.priceUsd('ETH', market.chain);
      expect(receipt.gasCostUsd).toBeCloseTo((Number(receipt.gasCostWei) / 1e18) * ethUsd, 5);
      expect(await port.receipt(market.chain, signed.txHash, MINED_WAIT_MS)).toEqual(receipt);
    });

    test('behavior: an unknown hash is null to receipt() and findReceipt() (looked up once, or waited for), never an error; isKnown() is false', async () => {
      const unknown = randomHash();
      expect(await port.receipt(market.chain, unknown, 200)).toBeNull();
      expect(await port.findReceipt(market.chain, [unknown], 0)).toBeNull();
      expect(await port.findReceipt(market.chain, [unknown], 200)).toBeNull();
      expect(await port.isKnown(market.chain, unknown)).toBe(false);
    });

    test('behavior: findReceipt() answers whichever of the hashes is mined; a rebroadcast of mined bytes changes nothing', async () => {
      const wallet = fresh();
      const { signed, receipt } = await mined(wallet, approve(market.chain, 'bridge', USDC(1)));
      expect(await port.findReceipt(market.chain, [randomHash(), signed.txHash], 0)).toEqual(receipt);
      await port.rebroadcast(market.chain, signed.raw);
      expect(await port.findReceipt(market.chain, [signed.txHash], 0)).toEqual(receipt);
    });

    test('behavior: replace() signs the same nonce again under a new hash and hands it to onSigned; when the nonce is mined already the replacement never lands', async () => {
      const wallet = fresh();
      const { signed, receipt } = await mined(wallet, approve(market.chain, 'bridge', USDC(1)));
      const handed: SignedTx[] = [];
      const replacement = await port.replace(wallet, signed, async (s) => void handed.push(s));
      expect(replacement).toEqual({
        chain: market.chain,
        kind: 'approve',
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        from: wallet.address,
        nonce: signed.nonce,
        raw: expect.stringMatching(/^0x/),
      });
      expect(replacement.txHash).not.toBe(signed.txHash);
      expect(handed).toEqual([replacement]);
      expect(await port.findReceipt(market.chain, [signed.txHash, replacement.txHash], 0)).toEqual(receipt);
      expect(await port.isKnown(market.chain, replacement.txHash)).toBe(false);
    });

    test("behavior: a bridge: the burn is attested, the relayer's mint delivers the amount less the fee (its receipt says how much), and messageReceived() names the mint", async () => {
      const wallet = fresh();
      const to = port.chains.find((c) => c !== market.chain && CHAINS[c].testnet === CHAINS[market.chain].testnet);
      if (to === undefined) throw new Error('the contract needs two chains of one kind of network');
      const amount = USDC(3);
      await h.fund(market.chain, wallet.address, 'USDC', amount);
      await mined(wallet, approve(market.chain, 'bridge', amount));
      const burn = await mined(wallet, { kind: 'burn', chain: market.chain, toChain: to, amount, maxFee: amount / 10n, minFinalityThreshold: 1000 });
      expect(burn.receipt.status).toBe('success');

      const attested = await port.attest(market.chain, burn.signed.txHash);
      expect(attested).toMatchObject({ message: expect.stringMatching(/^0x[0-9a-f]+$/), attestation: expect.stringMatching(/^0x[0-9a-f]+$/) });
      // an adapter that reads the fee the attestation service filled in says so (the fee kept back is never more than the burn allowed)
      if (attested.feeExecuted !== undefined) expect(attested.feeExecuted).toBeGreaterThanOrEqual(0n);
      expect(await port.messageReceived(to, attested.message)).toBeNull();

      const mint = await mined('relayer', { kind: 'mint', chain: to, message: attested.message, attestation: attested.attestation });
      expect(mint.receipt.status).toBe('success');
      expect(mint.receipt.minted).toBeGreaterThan(0n);
      expect(mint.receipt.minted).toBeLessThanOrEqual(amount);
      expect(amount - mint.receipt.minted!).toBeLessThanOrEqual(amount / 10n);
      expect(await port.messageReceived(to, attested.message)).toBe(mint.signed.txHash);

      const [arrived] = await port.holdings(wallet.address, [to]);
      expect(arrived!.tokens.find((t) => t.asset === 'USDC')?.balance).toBe(mint.receipt.minted);
      // the message is received: a second mint would only revert, and is refused before signing
      await expect(
        port.send('relayer', { kind: 'mint', chain: to, message: attested.message, attestation: attested.attestation }, keep),
      ).rejects.toBeInstanceOf(WouldRevertError);
    });

    test('behavior: an injected revert is mined: the receipt says reverted and nothing moved', async () => {
      if (h.revertNextSupply === undefined) {
        console.log(`${name}: capability missing: a mined revert (the implementation cannot revert a transaction after estimation); not asserted`);
        return;
      }
      const wallet = fresh();
      await h.fund(market.chain, wallet.address, 'USDC', USDC(2));
      await mined(wallet, approve(market.chain, market.protocol, USDC(2)));
      h.revertNextSupply(market.chain);
      const { receipt } = await mined(wallet, supply(USDC(2)));
      expect(receipt.status).toBe('reverted');
      const [after] = await port.holdings(wallet.address, [market.chain]);
      expect(after!.positions).toEqual([]);
      expect(after!.tokens.find((t) => t.asset === 'USDC')?.balance).toBe(USDC(2));
    });

    test("error: a chain the port does not serve is INVALID_CHAIN to every call that names it (a mint's gas estimate aside, which is its typical figure)", async () => {
      const chain = unknownChain();
      const wallet = fresh();
      const signed: SignedTx[] = [];
      const invalid = { code: 'INVALID_CHAIN' };
      await expect(port.send(wallet, approve(chain, 'bridge', 1n), async (s) => void signed.push(s))).rejects.toMatchObject(invalid);
      await expect(port.send('relayer', approve(chain, 'bridge', 1n), async (s) => void signed.push(s))).rejects.toMatchObject(invalid);
      expect(signed).toEqual([]);
      await expect(port.estimateGas(wallet.address, approve(chain, 'bridge', 1n))).rejects.toMatchObject(invalid);
      expect(await port.estimateGas(wallet.address, { kind: 'mint', chain, message: '0x00', attestation: '0x00' })).toEqual({
        gas: TYPICAL_GAS.mint,
        method: 'typical',
      });
      await expect(port.gasQuote(chain)).rejects.toMatchObject(invalid);
      await expect(port.priceUsd('ETH', chain)).rejects.toMatchObject(invalid);
      await expect(port.receipt(chain, randomHash(), 100)).rejects.toMatchObject(invalid);
      await expect(port.findReceipt(chain, [randomHash()], 0)).rejects.toMatchObject(invalid);
      await expect(port.isKnown(chain, randomHash())).rejects.toMatchObject(invalid);
      await expect(port.messageReceived(chain, `0x${'00'.repeat(148)}`)).rejects.toMatchObject(invalid);
    });

    test('error: a lending market the chain does not have is INVALID_CHAIN to send() and estimateGas(), before anything is signed', async () => {
      const rates = await port.rates();
      const missing = PROTOCOLS.flatMap((protocol) => TOKEN_ASSETS.map((asset) => ({ protocol, asset }))).find(
        ({ protocol, asset }) => !rates.some((r) => r.chain === market.chain && r.protocol === protocol && r.asset === asset),
      );
      if (missing === undefined) throw new Error(`${market.chain} has every market: no missing one to ask for`);
      const wallet = fresh();
      const tx: TxRequest = { kind: 'supply', chain: market.chain, protocol: missing.protocol, asset: missing.asset, amount: 1n };
      const signed: SignedTx[] = [];
      await expect(port.send(wallet, tx, async (s) => void signed.push(s))).rejects.toMatchObject({ code: 'INVALID_CHAIN' });
      await expect(
        port.send(
          wallet,
          { kind: 'approve', chain: market.chain, asset: missing.asset, spender: missing.protocol, amount: 1n },
          async (s) => void signed.push(s),
        ),
      ).rejects.toMatchObject({ code: 'INVALID_CHAIN' });
      expect(signed).toEqual([]);
      await expect(port.estimateGas(wallet.address, tx)).rejects.toMatchObject({ code: 'INVALID_CHAIN' });
    });
  });
}
