import { keccak256, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { AccountModel, Asset, ChainName, TokenAsset } from '../../../src/domain/chains';
import { STABLECOINS } from '../../../src/domain/chains';
import type { ErrorCode } from '../../../src/domain/errors/base';
import { ServiceError } from '../../../src/domain/errors/base';
import { WouldRevertError } from '../../../src/ports/chain';
import type { Attested, ChainHoldings, ChainPort, MarketRate, Protocol, SignedTx, TxKind, TxReceipt, TxRequest, TxSigner } from '../../../src/ports/chain';
import type { KeyVault } from '../../../src/ports/keyVault';
import type { GasEstimate, GasQuote } from '../../../src/ports/chain';
import { TYPICAL_GAS } from '../../../src/ports/typicalGas';
import { cctpFee } from '../../../src/domain/cctpFee';
import type { RouteFeeTable } from '../../../src/ports/chain';
import { DOUBLE_GAS, doubleAccountModel, doubleToken } from '../../helpers/chainDoubles';

/**
 * An in-process ChainPort for engine unit tests: a tiny ledger (balances,
 * allowances, lending positions, CCTP burns and mints) with instant receipts,
 * configurable reverts, transient errors and pauses, and a log of everything
 * signed and executed so tests can prove nothing was sent twice.
 */

export const RELAYER: Address = '0x00000000000000000000000000000000000000aa';
const FAUCET: Address = '0x00000000000000000000000000000000000000fa';
const FOREIGN_RELAYER: Address = '0x00000000000000000000000000000000000000fe';

/** Where a fault strikes: before signing, after signing but before broadcast, or on a read. */
export type FaultOp = 'send' | 'broadcast' | 'receipt' | 'holdings' | 'rates' | 'attest';

interface Fault {
  op: FaultOp;
  make: () => unknown;
  count: number;
  kind?: TxKind;
}

interface SignedEntry {
  hash: Hex;
  from: Address;
  tx: TxRequest;
  nonce?: number;
}

interface Burn {
  from: Address;
  chain: ChainName;
  toChain: ChainName;
  amount: bigint;
  maxFee: bigint;
  minFinalityThreshold: number;
  minted: boolean;
  /** The transaction that minted it. */
  mintedBy?: Hex;
}

/** Every transaction pays 1 gwei per gas. */
const GAS_PRICE_WEI = 1_000_000_000n;
/** ETH in USD on every chain: a receipt's gasCostUsd (gasUsed × 1 gwei at this price) is gasUsed / 10^7, the figures the engine tests assert. */
const ETH_USD = 100;

const key = (...parts: string[]): string => parts.join('|');

/** Test key vault: a deterministic key per wallet id. */
export function testKeyVault(): Pick<KeyVault, 'signer'> {
  return { signer: async (walletId) => privateKeyToAccount(keccak256(toHex(walletId))) };
}

/** The address `testKeyVault` signs with for `walletId`. */
export function testAddress(walletId: string): Address {
  return privateKeyToAccount(keccak256(toHex(walletId))).address;
}

export class FakeChain implements ChainPort {
  readonly chains: ChainName[];
  marketRates: MarketRate[];
  /** CCTP fast fee (bps) on every route, as the attestation service would answer it; a test may change it between planning and a mint. */
  feeBps: number;
  /** CCTP standard fee (bps). */
  standardFeeBps = 0;
  /** What the last mint executed delivered (its receipt carries it). */
  private lastMinted: bigint | undefined;
  /** Everything signed, in order. */
  readonly signed: SignedTx[] = [];
  /** Hashes executed on chain, in order (a hash appears once per execution). */
  readonly executed: Hex[] = [];
  readonly rebroadcasts: Hex[] = [];
  /** Awaited after onSigned and before the broadcast (hold a transaction between persisting and sending it). */
  beforeBroadcast?: (signed: SignedTx) => Promise<void>;
  /** Awaited before a receipt is answered. */
  beforeReceipt?: (chain: ChainName, hash: Hex) => Promise<void>;
  /** How findReceipt waits when nothing is mined (the harness passes its clock, so virtual time moves). */
  waitWith: (ms: number) => Promise<void> = () => new Promise((r) => setImmediate(r));
  /** Replacements signed (same nonce, higher fee), in order. */
  readonly replacements: SignedTx[] = [];
  /** Chains that mine nothing: what is sent there waits, one transaction per (sender, nonce), until resume(). */
  private readonly stalled = new Set<ChainName>();
  private readonly pending = new Map<string, SignedEntry>();

  private readonly balances = new Map<string, bigint>();
  private readonly positions = new Map<string, bigint>();
  private readonly allowances = new Map<string, bigint>();
  private readonly receipts = new Map<Hex, TxReceipt>();
  private readonly byRaw = new Map<Hex, SignedEntry>();
  private readonly burns = new Map<Hex, Burn>();
  private readonly nonces = new Map<string, number>();
  private readonly reverts: { kind: TxKind; chain?: ChainName; count: number }[] = [];
  private readonly faults: Fault[] = [];
  private block = 1n;

  constructor(o: { rates?: MarketRate[]; feeBps?: number; chains?: ChainName[] } = {}) {
    this.chains = o.chains ?? ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];
    this.marketRates = o.rates ?? [];
    this.feeBps = o.feeBps ?? 0;
  }

  // ---- test controls ----

  /** Credits `amount` (smallest units) of `asset` to `address` on `chain`. */
  fund(chain: ChainName, address: Address, asset: TokenAsset, amount: bigint): void {
    this.add(this.balances, key(chain, address, asset), amount);
  }

  /** Gives `address` a supplied position. */
  supplyPosition(chain: ChainName, address: Address, protocol: Protocol, asset: TokenAsset, amount: bigint): void {
    this.add(this.positions, key(chain, address, protocol, asset), amount);
  }

  balance(chain: ChainName, address: Address, asset: TokenAsset): bigint {
    return this.balances.get(key(chain, address, asset)) ?? 0n;
  }

  position(chain: ChainName, address: Address, protocol: Protocol, asset: TokenAsset): bigint {
    return this.positions.get(key(chain, address, protocol, asset)) ?? 0n;
  }

  /** The next `count` transactions of `kind` (on `chain`, when given) revert. */
  revertNext(kind: TxKind, o: { chain?: ChainName; count?: number } = {}): void {
    this.reverts.push({ kind, chain: o.chain, count: o.count ?? 1 });
  }

  /** The next `count` calls at `op` (for transactions of `kind`, when given) throw a ServiceError `code` (NETWORK_ERROR/TIMEOUT are transient). */
  failNext(op: FaultOp, code: ErrorCode, o: { count?: number; kind?: TxKind } = {}): void {
    this.faults.push({ op, make: () => new ServiceError(code, `injected ${code} at ${op}`, { details: { op } }), count: o.count ?? 1, kind: o.kind });
  }

  /** The next call at `op` (for transactions of `kind`, when given) throws `error` as is (a bug-like, non-service error). */
  throwNext(op: FaultOp, error: unknown, o: { kind?: TxKind } = {}): void {
    this.faults.push({ op, make: () => error, count: 1, kind: o.kind });
  }

  /** `chain` mines nothing until resume(chain). */
  stall(chain: ChainName): void {
    this.stalled.add(chain);
  }

  /** Mines what waits on `chain`: per nonce, the latest bytes the mempool holds. */
  resume(chain: ChainName): void {
    this.stalled.delete(chain);
    for (const [k, entry] of [...this.pending]) {
      if (!k.startsWith(`${chain}|`)) continue;
      this.pending.delete(k);
      this.execute(entry);
    }
  }

  /** Another party relays the CCTP message of `burnHash` to `chain` (nothing the service signs). */
  relayMint(chain: ChainName, burnHash: Hex): Hex {
    const hash = keccak256(toHex(`foreign-mint|${burnHash}`));
    if (!this.receipts.has(hash)) this.execute({ hash, from: FOREIGN_RELAYER, tx: { kind: 'mint', chain, message: burnHash, attestation: '0x' } });
    return hash;
  }

  /** The allowance `owner` gave `spender` on `chain`. */
  allowance(chain: ChainName, owner: Address, spender: string, asset: TokenAsset): bigint {
    return this.allowances.get(key(chain, owner, spender, asset)) ?? 0n;
  }

  /** How many times a transaction of `kind` was signed. */
  signedCount(kind: TxKind): number {
    return this.signed.filter((s) => s.kind === kind).length;
  }

  // ---- ChainPort ----

  async holdings(address: Address, chains: readonly ChainName[]): Promise<ChainHoldings[]> {
    this.fault('holdings');
    return chains
      .filter((c) => this.chains.includes(c))
      .map((chain) => {
        const tokens: ChainHoldings['tokens'] = [];
        const positions: ChainHoldings['positions'] = [];
        for (const [k, v] of this.balances) {
          const [c, a, asset] = k.split('|');
          if (c === chain && a === address && v > 0n) tokens.push({ asset: asset as Asset, token: doubleToken(asset as TokenAsset), balance: v });
        }
        for (const [k, v] of this.positions) {
          const [c, a, protocol, asset] = k.split('|');
          if (c === chain && a === address && v > 0n)
            positions.push({ protocol: protocol as Protocol, asset: asset as TokenAsset, token: doubleToken(asset as TokenAsset), amount: v });
        }
        return { chain, tokens, positions };
      });
  }

  async rates(): Promise<MarketRate[]> {
    this.fault('rates');
    return this.marketRates;
  }

  async routeFees(): Promise<RouteFeeTable> {
    const out: RouteFeeTable = {};
    for (const from of this.chains)
      for (const to of this.chains) if (from !== to) (out[from] ??= {})[to] = { fast: this.feeBps, standard: this.standardFeeBps };
    return out;
  }

  /** 1 gwei, ETH at ETH_USD. */
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

  /**
   * As the adapter: an unknown chain or market is refused, and so is a
   * transaction that would revert now (WouldRevertError, nothing signed),
   * unless a revert was injected for it (revertNext), which is mined. The
   * nonce is spent only once `onSigned` took the transaction.
   */
  async send(signer: TxSigner, tx: TxRequest, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx> {
    this.fault('send', tx.kind);
    this.requireMarket(tx);
    const from = signer === 'relayer' ? RELAYER : signer === 'faucet' ? FAUCET : signer.address;
    const failing = this.injectedRevert(tx) === undefined ? this.failure(from, tx) : undefined;
    if (failing !== undefined) throw new WouldRevertError(tx.chain, tx.kind, failing);
    const nonceKey = key(tx.chain, from);
    const nonce = this.nonces.get(nonceKey) ?? 0;
    const raw = toHex(JSON.stringify({ from, nonce, tx }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    const signed: SignedTx = { chain: tx.chain, kind: tx.kind, txHash: keccak256(raw), from, nonce, raw };
    this.signed.push(signed);
    await onSigned(signed);
    this.nonces.set(nonceKey, nonce + 1);
    this.byRaw.set(raw, { hash: signed.txHash, from, tx, nonce });
    await this.beforeBroadcast?.(signed);
    this.fault('broadcast', tx.kind);
    this.land({ hash: signed.txHash, from, tx, nonce });
    return signed;
  }

  async rebroadcast(chain: ChainName, raw: Hex): Promise<void> {
    this.requireChain(chain);
    const entry = this.byRaw.get(raw);
    if (entry === undefined) throw new Error('rebroadcast of bytes this chain never signed');
    this.fault('broadcast', entry.tx.kind);
    this.rebroadcasts.push(entry.hash);
    if (!this.receipts.has(entry.hash) && !this.isPending(entry.hash)) this.land(entry);
  }

  async findReceipt(chain: ChainName, hashes: readonly Hex[], waitMs: number): Promise<TxReceipt | null> {
    this.requireChain(chain);
    for (const hash of hashes) await this.beforeReceipt?.(chain, hash);
    this.fault('receipt');
    const found = (): TxReceipt | null => hashes.map((h) => this.receipts.get(h)).find((r) => r !== undefined) ?? null;
    if (found() !== null || waitMs <= 0) return found();
    await this.waitWith(waitMs);
    return found();
  }

  async isKnown(chain: ChainName, txHash: Hex): Promise<boolean> {
    this.requireChain(chain);
    return this.receipts.has(txHash) || this.isPending(txHash);
  }

  async replace(_signer: TxSigner, sent: Pick<SignedTx, 'chain' | 'kind' | 'raw'>, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx> {
    this.requireChain(sent.chain);
    const entry = this.byRaw.get(sent.raw);
    if (entry?.nonce === undefined) throw new Error('replacement of bytes this chain never signed');
    const raw = toHex(`${sent.raw}|bump${this.replacements.length + 1}`);
    const signed: SignedTx = { chain: sent.chain, kind: sent.kind, txHash: keccak256(raw), from: entry.from, nonce: entry.nonce, raw };
    const next: SignedEntry = { hash: signed.txHash, from: entry.from, tx: entry.tx, nonce: entry.nonce };
    this.byRaw.set(raw, next);
    this.replacements.push(signed);
    await onSigned(signed);
    // A nonce already mined takes no replacement.
    if (!this.receipts.has(entry.hash)) this.land(next);
    return signed;
  }

  async messageReceived(chain: ChainName, message: Hex): Promise<Hex | null> {
    this.requireChain(chain);
    return this.burns.get(message)?.mintedBy ?? null;
  }

  async receipt(chain: ChainName, txHash: Hex): Promise<TxReceipt | null> {
    this.requireChain(chain);
    await this.beforeReceipt?.(chain, txHash);
    this.fault('receipt');
    return this.receipts.get(txHash) ?? null;
  }

  async attest(chain: ChainName, burnTxHash: Hex): Promise<Attested> {
    this.requireChain(chain);
    this.fault('attest');
    if (!this.burns.has(burnTxHash)) throw new ServiceError('BRIDGE_FAILED', 'No MessageSent in the burn transaction');
    return { message: burnTxHash, attestation: '0xa77e57' };
  }

  accountModel(chain: ChainName): AccountModel {
    return doubleAccountModel(chain);
  }

  async close(): Promise<void> {}

  // ---- ledger ----

  private fault(op: FaultOp, kind?: TxKind): void {
    const f = this.faults.find((x) => x.op === op && x.count > 0 && (x.kind === undefined || x.kind === kind));
    if (f === undefined) return;
    f.count--;
    throw f.make();
  }

  private add(m: Map<string, bigint>, k: string, by: bigint): void {
    m.set(k, (m.get(k) ?? 0n) + by);
  }

  /** Moves `amount` out of `k` in `m` (failure() found it there). */
  private take(m: Map<string, bigint>, k: string, amount: bigint): void {
    m.set(k, (m.get(k) ?? 0n) - amount);
  }

  /** INVALID_CHAIN for a chain this double does not serve, as the adapter answers it. */
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

  private injectedRevert(tx: TxRequest): { kind: TxKind; chain?: ChainName; count: number } | undefined {
    return this.reverts.find((x) => x.kind === tx.kind && x.count > 0 && (x.chain === undefined || x.chain === tx.chain));
  }

  /** Why `tx` from `from` would revert on the ledger as it stands, or undefined when it would succeed. */
  private failure(from: Address, tx: TxRequest): string | undefined {
    const short = (m: Map<string, bigint>, k: string, amount: bigint) => (m.get(k) ?? 0n) < amount;
    switch (tx.kind) {
      case 'approve':
      case 'revoke':
        return undefined;
      case 'supply':
        if (short(this.allowances, key(tx.chain, from, tx.protocol, tx.asset), tx.amount)) return 'insufficient allowance';
        return short(this.balances, key(tx.chain, from, tx.asset), tx.amount) ? 'transfer amount exceeds balance' : undefined;
      case 'withdraw':
        return tx.amount !== 'max' && short(this.positions, key(tx.chain, from, tx.protocol, tx.asset), tx.amount) ? 'not enough supplied' : undefined;
      case 'burn':
        if (short(this.allowances, key(tx.chain, from, 'bridge', 'USDC'), tx.amount)) return 'insufficient allowance';
        return short(this.balances, key(tx.chain, from, 'USDC'), tx.amount) ? 'transfer amount exceeds balance' : undefined;
      case 'mint': {
        const burn = this.burns.get(tx.message);
        if (burn === undefined || burn.toChain !== tx.chain) return 'invalid message';
        return burn.minted ? 'nonce already used' : undefined;
      }
      case 'transfer':
        return short(this.balances, key(tx.chain, from, tx.asset), tx.amount) ? 'transfer amount exceeds balance' : undefined;
    }
  }

  /** Applies the transaction's effects; an injected revert or any failed condition reverts it (no effect, gas still spent). */
  private apply(hash: Hex, from: Address, tx: TxRequest): boolean {
    const r = this.injectedRevert(tx);
    if (r !== undefined) {
      r.count--;
      return false;
    }
    if (this.failure(from, tx) !== undefined) return false;
    switch (tx.kind) {
      case 'approve':
        this.allowances.set(key(tx.chain, from, tx.spender, tx.asset), tx.amount);
        return true;
      case 'revoke':
        this.allowances.set(key(tx.chain, from, tx.spender, tx.asset), 0n);
        return true;
      case 'supply':
        this.take(this.allowances, key(tx.chain, from, tx.protocol, tx.asset), tx.amount);
        this.take(this.balances, key(tx.chain, from, tx.asset), tx.amount);
        this.add(this.positions, key(tx.chain, from, tx.protocol, tx.asset), tx.amount);
        return true;
      case 'withdraw': {
        const amount = tx.amount === 'max' ? this.position(tx.chain, from, tx.protocol, tx.asset) : tx.amount;
        this.take(this.positions, key(tx.chain, from, tx.protocol, tx.asset), amount);
        this.add(this.balances, key(tx.chain, from, tx.asset), amount);
        return true;
      }
      case 'burn':
        this.take(this.allowances, key(tx.chain, from, 'bridge', 'USDC'), tx.amount);
        this.take(this.balances, key(tx.chain, from, 'USDC'), tx.amount);
        this.burns.set(hash, {
          from,
          chain: tx.chain,
          toChain: tx.toChain,
          amount: tx.amount,
          maxFee: tx.maxFee,
          minFinalityThreshold: tx.minFinalityThreshold,
          minted: false,
        });
        return true;
      case 'mint': {
        const burn = this.burns.get(tx.message)!;
        burn.minted = true;
        burn.mintedBy = hash;
        // As the attestation service: fast at the fee of the moment when maxFee covers it, else standard.
        const fast = cctpFee(burn.amount, this.feeBps);
        const fee = burn.minFinalityThreshold <= 1000 && fast <= burn.maxFee ? fast : cctpFee(burn.amount, this.standardFeeBps);
        this.lastMinted = burn.amount - fee;
        this.add(this.balances, key(tx.chain, burn.from, 'USDC'), burn.amount - fee);
        return true;
      }
      case 'transfer':
        this.take(this.balances, key(tx.chain, from, tx.asset), tx.amount);
        this.add(this.balances, key(tx.chain, tx.to, tx.asset), tx.amount);
        return true;
    }
  }

  private isPending(hash: Hex): boolean {
    return [...this.pending.values()].some((e) => e.hash === hash);
  }

  /** Mined at once, or, on a stalled chain, kept as the pending transaction of its nonce (a replacement takes the place of the bytes before it). */
  private land(entry: SignedEntry): void {
    if (this.stalled.has(entry.tx.chain) && entry.nonce !== undefined) {
      this.pending.set(key(entry.tx.chain, entry.from, String(entry.nonce)), entry);
      return;
    }
    this.execute(entry);
  }

  private execute({ hash, from, tx }: SignedEntry): void {
    if (this.receipts.has(hash)) throw new Error(`transaction ${hash} executed twice`);
    this.executed.push(hash);
    this.lastMinted = undefined;
    const ok = this.apply(hash, from, tx);
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

/** The lending market `tx` goes to (a supply, a withdraw, an allowance for a protocol), if any. */
function lendingMarketOf(tx: TxRequest): { protocol: Protocol; asset: TokenAsset } | undefined {
  if (tx.kind === 'supply' || tx.kind === 'withdraw') return { protocol: tx.protocol, asset: tx.asset };
  if ((tx.kind === 'approve' || tx.kind === 'revoke') && tx.spender !== 'bridge') return { protocol: tx.spender, asset: tx.asset };
  return undefined;
}
