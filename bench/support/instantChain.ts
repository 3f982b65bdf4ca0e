/**
 * An in-process ChainPort for the engine benchmarks, modelled on
 * test/unit/engine/fakeChain.ts: a ledger of balances, allowances, lending
 * positions and CCTP burns/mints, with instant receipts. Unlike the test double
 * it indexes the ledger by address (holdings() costs O(that wallet), not O(every
 * wallet)) and keeps no signed/executed logs, so what the benchmark measures is
 * the engine, not the double. No real signing unless `sign` is set (then each
 * send is signed by the wallet's key): otherwise only the signer's address is used.
 *
 * `io: 'immediate'` makes every port call resolve in a later event-loop turn
 * (setImmediate), as real network I/O would; `io: 'microtask'` answers at once.
 */
import { createHash } from 'node:crypto';
import { hexToString, toHex, type Address, type Hex } from 'viem';
import type { Asset, ChainName, TokenAsset } from '../../src/domain/chains';
import { STABLECOINS } from '../../src/domain/chains';
import { ServiceError } from '../../src/domain/errors/base';
import {
  WouldRevertError,
  type Attested,
  type ChainHoldings,
  type ChainPort,
  type GasEstimate,
  type GasQuote,
  type MarketRate,
  type Protocol,
  type RouteFeeTable,
  type SignedTx,
  type TxReceipt,
  type TxRequest,
  type TxSigner,
} from '../../src/ports/chain';
import { cctpFee } from '../../src/domain/cctpFee';
import { TYPICAL_GAS } from '../../src/ports/typicalGas';
import { DOUBLE_GAS, doubleToken } from '../../test/helpers/chainDoubles';

export const BENCH_RELAYER: Address = '0x00000000000000000000000000000000000000aa';
const FAUCET: Address = '0x00000000000000000000000000000000000000fa';

/** Every transaction pays 1 gwei per gas, ETH is at 3000 USD on every chain. */
const GAS_PRICE_WEI = 1_000_000_000n;
const ETH_USD = 3000;

interface Account {
  /** `chain|asset` → smallest units. */
  balances: Map<string, bigint>;
  /** `chain|spender|asset`. */
  allowances: Map<string, bigint>;
  /** `chain|protocol|asset`. */
  positions: Map<string, bigint>;
}

interface Burn {
  from: Address;
  toChain: ChainName;
  amount: bigint;
  /** minFinalityThreshold 1000: charged the fast fee. */
  fast: boolean;
}

const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const bigintJson = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v);

export class InstantChain implements ChainPort {
  readonly chains: ChainName[];
  /** Transactions executed (successful or reverted). */
  txCount = 0;
  reverted = 0;
  /** Route fees kept by the bridge, smallest units of USDC. */
  feesCollected = 0n;

  private readonly accounts = new Map<Address, Account>();
  private readonly receipts = new Map<Hex, TxReceipt>();
  private readonly burns = new Map<Hex, Burn>();
  /** CCTP messages minted (their burns are dropped from `burns`). */
  private readonly minted = new Map<Hex, Hex>();
  private readonly nonces = new Map<string, number>();
  private readonly feeTable: RouteFeeTable = {};
  private readonly pause: () => Promise<void>;
  private block = 1n;
  /** What the last mint executed delivered (its receipt carries it). */
  private lastMinted: bigint | undefined;

  /** Whether sends are signed for real by the signer's account (BENCH_SIGN); else only its address is used. */
  private readonly sign: boolean;

  constructor(
    private readonly marketRates: MarketRate[],
    private readonly feeBps: number,
    o: { chains?: ChainName[]; io?: 'immediate' | 'microtask'; sign?: boolean } = {},
  ) {
    this.sign = o.sign ?? false;
    this.chains = o.chains ?? ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];
    for (const from of this.chains) for (const to of this.chains) if (from !== to) (this.feeTable[from] ??= {})[to] = { fast: feeBps, standard: 0 };
    this.pause = (o.io ?? 'immediate') === 'immediate' ? immediate : () => Promise.resolve();
  }

  // ---- bench controls ----

  fund(chain: ChainName, address: Address, asset: TokenAsset, amount: bigint): void {
    add(this.account(address).balances, `${chain}|${asset}`, amount);
  }

  /** Totals of `asset` over every account: wallet balances, supplied positions, and burns not minted yet. */
  totals(asset: TokenAsset): { balances: bigint; positions: bigint; inFlight: bigint } {
    let balances = 0n;
    let positions = 0n;
    for (const a of this.accounts.values()) {
      for (const [k, v] of a.balances) if (k.endsWith(`|${asset}`)) balances += v;
      for (const [k, v] of a.positions) if (k.endsWith(`|${asset}`)) positions += v;
    }
    let inFlight = 0n;
    if (asset === 'USDC') for (const b of this.burns.values()) inFlight += b.amount;
    return { balances, positions, inFlight };
  }

  /** What `address` holds on `chains`, synchronously (the baseline reads it without the port's async boundary). */
  holdingsNow(address: Address, chains: readonly ChainName[]): ChainHoldings[] {
    const a = this.accounts.get(address);
    return chains
      .filter((c) => this.chains.includes(c))
      .map((chain) => {
        const tokens: ChainHoldings['tokens'] = [];
        const positions: ChainHoldings['positions'] = [];
        if (a !== undefined) {
          for (const [k, v] of a.balances) {
            const [c, asset] = k.split('|');
            if (c === chain && v > 0n) tokens.push({ asset: asset as Asset, token: doubleToken(asset as TokenAsset), balance: v });
          }
          for (const [k, v] of a.positions) {
            const [c, protocol, asset] = k.split('|');
            if (c === chain && v > 0n)
              positions.push({ protocol: protocol as Protocol, asset: asset as TokenAsset, token: doubleToken(asset as TokenAsset), amount: v });
          }
        }
        return { chain, tokens, positions };
      });
  }

  // ---- ChainPort ----

  async holdings(address: Address, chains: readonly ChainName[]): Promise<ChainHoldings[]> {
    await this.pause();
    return this.holdingsNow(address, chains);
  }

  async rates(): Promise<MarketRate[]> {
    await this.pause();
    return this.marketRates;
  }

  async routeFees(): Promise<RouteFeeTable> {
    await this.pause();
    return this.feeTable;
  }

  async gasQuote(chain: ChainName): Promise<GasQuote> {
    this.requireChain(chain);
    return { chain, gasPriceWei: GAS_PRICE_WEI, ethUsd: ETH_USD };
  }

  /** The typical figure of every kind (a mint's before anything is looked at, as the adapter answers it). */
  async estimateGas(_from: Address, tx: TxRequest): Promise<GasEstimate> {
    if (tx.kind !== 'mint') this.requireMarket(tx);
    return { gas: TYPICAL_GAS[tx.kind], method: 'typical' };
  }

  async priceUsd(asset: Asset, chain: ChainName): Promise<number> {
    if (STABLECOINS.includes(asset)) return 1;
    this.requireChain(chain);
    return ETH_USD;
  }

  /** As the adapter: an unknown chain or market is refused, and so is a transaction that would revert (WouldRevertError, nothing signed); the nonce is spent once `onSigned` took it. */
  async send(signer: TxSigner, tx: TxRequest, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx> {
    await this.pause();
    this.requireMarket(tx);
    const from = signer === 'relayer' ? BENCH_RELAYER : signer === 'faucet' ? FAUCET : signer.address;
    const failing = this.failure(from, tx);
    if (failing !== undefined) throw new WouldRevertError(tx.chain, tx.kind, failing);
    const nonceKey = `${tx.chain}|${from}`;
    const nonce = this.nonces.get(nonceKey) ?? 0;
    // about the size of a signed EIP-1559 transaction in hex; a native hash stands in for keccak (only uniqueness matters here)
    const payload = toHex(JSON.stringify({ from, nonce, tx }, bigintJson));
    // with `sign`, the wallet's key signs a stand-in EIP-1559 transaction carrying it (what a key provider costs per send)
    const raw =
      this.sign && typeof signer !== 'string'
        ? await signer.signTransaction({
            type: 'eip1559',
            chainId: 1,
            nonce,
            to: from,
            gas: 21_000n,
            maxFeePerGas: 1n,
            maxPriorityFeePerGas: 1n,
            data: payload,
          })
        : payload;
    const signed: SignedTx = { chain: tx.chain, kind: tx.kind, txHash: nativeHash(raw), from, nonce, raw };
    await onSigned(signed);
    this.nonces.set(nonceKey, nonce + 1);
    await this.pause();
    this.execute(signed.txHash, from, tx);
    return signed;
  }

  async rebroadcast(chain: ChainName, _raw: Hex): Promise<void> {
    // every send executes at once, so a rebroadcast never finds an unknown transaction
    this.requireChain(chain);
  }

  async findReceipt(chain: ChainName, hashes: readonly Hex[]): Promise<TxReceipt | null> {
    await this.pause();
    this.requireChain(chain);
    return hashes.map((h) => this.receipts.get(h)).find((r) => r !== undefined) ?? null;
  }

  async isKnown(chain: ChainName, txHash: Hex): Promise<boolean> {
    this.requireChain(chain);
    return this.receipts.has(txHash);
  }

  /** Every send executes at once, so the nonce of `sent` is always mined: the replacement is signed and handed over, and never lands. */
  async replace(signer: TxSigner, sent: Pick<SignedTx, 'chain' | 'kind' | 'raw'>, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx> {
    this.requireChain(sent.chain);
    const { from, nonce, tx } = JSON.parse(hexToString(sent.raw)) as { from: Address; nonce: number; tx: unknown };
    const by = signer === 'relayer' ? BENCH_RELAYER : signer === 'faucet' ? FAUCET : signer.address;
    if (by !== from) throw new Error(`replacement of ${from}'s transaction signed by ${by}`);
    const raw = toHex(JSON.stringify({ from, nonce, tx, replaces: nativeHash(sent.raw) }));
    const signed: SignedTx = { chain: sent.chain, kind: sent.kind, txHash: nativeHash(raw), from, nonce, raw };
    await onSigned(signed);
    return signed;
  }

  async messageReceived(chain: ChainName, message: Hex): Promise<Hex | null> {
    this.requireChain(chain);
    return this.minted.get(message) ?? null;
  }

  async receipt(chain: ChainName, txHash: Hex): Promise<TxReceipt | null> {
    await this.pause();
    this.requireChain(chain);
    return this.receipts.get(txHash) ?? null;
  }

  async attest(chain: ChainName, burnTxHash: Hex): Promise<Attested> {
    await this.pause();
    this.requireChain(chain);
    if (!this.burns.has(burnTxHash)) throw new ServiceError('BRIDGE_FAILED', 'No MessageSent in the burn transaction');
    return { message: burnTxHash, attestation: '0xa77e57' };
  }

  async close(): Promise<void> {}

  // ---- ledger ----

  private account(address: Address): Account {
    let a = this.accounts.get(address);
    if (a === undefined) {
      a = { balances: new Map(), allowances: new Map(), positions: new Map() };
      this.accounts.set(address, a);
    }
    return a;
  }

  /** INVALID_CHAIN for a chain this chain does not serve, as the adapter answers it. */
  private requireChain(chain: ChainName): void {
    if (!this.chains.includes(chain)) throw new ServiceError('INVALID_CHAIN', `Chain ${chain} is not configured`, { details: { chain } });
  }

  /** INVALID_CHAIN for a lending market not among the rates (the adapter's deployment has no such market). */
  private requireMarket(tx: TxRequest): void {
    this.requireChain(tx.chain);
    const market = lendingMarketOf(tx);
    if (market === undefined) return;
    const { protocol, asset } = market;
    if (!this.marketRates.some((m) => m.chain === tx.chain && m.protocol === protocol && m.asset === asset)) {
      throw new ServiceError('INVALID_CHAIN', `No ${protocol} ${asset} market on ${tx.chain}`, { details: { chain: tx.chain, protocol, asset } });
    }
  }

  /** Why `tx` from `from` would revert on the ledger as it stands, or undefined when it would succeed. */
  private failure(from: Address, tx: TxRequest): string | undefined {
    const a = this.account(from);
    const short = (m: Map<string, bigint>, k: string, amount: bigint) => (m.get(k) ?? 0n) < amount;
    switch (tx.kind) {
      case 'approve':
      case 'revoke':
        return undefined;
      case 'supply':
        if (short(a.allowances, `${tx.chain}|${tx.protocol}|${tx.asset}`, tx.amount)) return 'insufficient allowance';
        return short(a.balances, `${tx.chain}|${tx.asset}`, tx.amount) ? 'transfer amount exceeds balance' : undefined;
      case 'withdraw':
        return tx.amount !== 'max' && short(a.positions, `${tx.chain}|${tx.protocol}|${tx.asset}`, tx.amount) ? 'not enough supplied' : undefined;
      case 'burn':
        if (short(a.allowances, `${tx.chain}|bridge|USDC`, tx.amount)) return 'insufficient allowance';
        return short(a.balances, `${tx.chain}|USDC`, tx.amount) ? 'transfer amount exceeds balance' : undefined;
      case 'mint': {
        if (this.minted.has(tx.message)) return 'nonce already used';
        const burn = this.burns.get(tx.message);
        return burn === undefined || burn.toChain !== tx.chain ? 'invalid message' : undefined;
      }
      case 'transfer':
        return short(a.balances, `${tx.chain}|${tx.asset}`, tx.amount) ? 'transfer amount exceeds balance' : undefined;
    }
  }

  /** Applies the transaction's effects; a failed condition reverts it (no effect). */
  private apply(hash: Hex, from: Address, tx: TxRequest): boolean {
    if (this.failure(from, tx) !== undefined) return false;
    const a = this.account(from);
    switch (tx.kind) {
      case 'approve':
        a.allowances.set(`${tx.chain}|${tx.spender}|${tx.asset}`, tx.amount);
        return true;
      case 'revoke':
        a.allowances.set(`${tx.chain}|${tx.spender}|${tx.asset}`, 0n);
        return true;
      case 'supply':
        take(a.allowances, `${tx.chain}|${tx.protocol}|${tx.asset}`, tx.amount);
        take(a.balances, `${tx.chain}|${tx.asset}`, tx.amount);
        add(a.positions, `${tx.chain}|${tx.protocol}|${tx.asset}`, tx.amount);
        return true;
      case 'withdraw': {
        const position = `${tx.chain}|${tx.protocol}|${tx.asset}`;
        const amount = tx.amount === 'max' ? (a.positions.get(position) ?? 0n) : tx.amount;
        take(a.positions, position, amount);
        add(a.balances, `${tx.chain}|${tx.asset}`, amount);
        return true;
      }
      case 'burn':
        take(a.allowances, `${tx.chain}|bridge|USDC`, tx.amount);
        take(a.balances, `${tx.chain}|USDC`, tx.amount);
        this.burns.set(hash, { from, toChain: tx.toChain, amount: tx.amount, fast: tx.minFinalityThreshold <= 1000 });
        return true;
      case 'mint': {
        const burn = this.burns.get(tx.message)!;
        this.burns.delete(tx.message);
        this.minted.set(tx.message, hash);
        const fee = burn.fast ? cctpFee(burn.amount, this.feeBps) : 0n;
        this.lastMinted = burn.amount - fee;
        this.feesCollected += fee;
        add(this.account(burn.from).balances, `${tx.chain}|USDC`, burn.amount - fee);
        return true;
      }
      case 'transfer':
        take(a.balances, `${tx.chain}|${tx.asset}`, tx.amount);
        add(this.account(tx.to).balances, `${tx.chain}|${tx.asset}`, tx.amount);
        return true;
    }
  }

  private execute(hash: Hex, from: Address, tx: TxRequest): void {
    this.lastMinted = undefined;
    const ok = this.apply(hash, from, tx);
    this.txCount++;
    if (!ok) this.reverted++;
    const gasUsed = DOUBLE_GAS[tx.kind];
    this.receipts.set(hash, {
      chain: tx.chain,
      txHash: hash,
      status: ok ? 'success' : 'reverted',
      gasUsed,
      gasCostWei: gasUsed * GAS_PRICE_WEI,
      // priced as the adapter prices it: at the chain's ETH/USD, to the micro-dollar
      gasCostUsd: Math.round((Number(gasUsed * GAS_PRICE_WEI) / 1e18) * ETH_USD * 1e6) / 1e6,
      blockNumber: this.block++,
      ...(ok && this.lastMinted !== undefined && { minted: this.lastMinted }),
    });
  }
}

function add(m: Map<string, bigint>, k: string, by: bigint): void {
  m.set(k, (m.get(k) ?? 0n) + by);
}

/** Moves `amount` out of `k` (failure() found it there). */
function take(m: Map<string, bigint>, k: string, amount: bigint): void {
  m.set(k, (m.get(k) ?? 0n) - amount);
}

/** The lending market `tx` goes to (a supply, a withdraw, an allowance for a protocol), if any. */
function lendingMarketOf(tx: TxRequest): { protocol: Protocol; asset: TokenAsset } | undefined {
  if (tx.kind === 'supply' || tx.kind === 'withdraw') return { protocol: tx.protocol, asset: tx.asset };
  if ((tx.kind === 'approve' || tx.kind === 'revoke') && tx.spender !== 'bridge') return { protocol: tx.spender, asset: tx.asset };
  return undefined;
}

/** A native hash stands in for keccak: only uniqueness matters here. */
function nativeHash(raw: Hex): Hex {
  return `0x${createHash('sha256').update(raw).digest('hex')}`;
}
