/**
 * An in-process ChainPort for the engine benchmarks, modelled on
 * test/unit/engine/fakeChain.ts: a ledger of balances, allowances, lending
 * positions and CCTP burns/mints, with instant receipts. Unlike the test double
 * it indexes the ledger by address (holdings() costs O(that wallet), not O(every
 * wallet)) and keeps no signed/executed logs, so what the benchmark measures is
 * the engine, not the double. No real signing: only the signer's address is used.
 *
 * `io: 'immediate'` makes every port call resolve in a later event-loop turn
 * (setImmediate), as real network I/O would; `io: 'microtask'` answers at once.
 */
import { createHash } from 'node:crypto';
import { toHex, type Address, type Hex } from 'viem';
import type { Asset, ChainName, TokenAsset } from '../../src/domain/chains';
import { STABLECOINS } from '../../src/domain/chains';
import { ServiceError } from '../../src/domain/errors/base';
import type { Attested, ChainHoldings, ChainPort, GasEstimate, GasQuote, MarketRate, Protocol, RouteFeeTable, SignedTx, TxKind, TxReceipt, TxRequest, TxSigner } from '../../src/ports/chain';
import { cctpFee } from '../../src/domain/cctpFee';
import { TYPICAL_GAS } from '../../src/ports/typicalGas';

export const BENCH_RELAYER: Address = '0x00000000000000000000000000000000000000aa';
const FAUCET: Address = '0x00000000000000000000000000000000000000fa';

const GAS: Record<TxKind, bigint> = { approve: 46_000n, revoke: 29_000n, supply: 180_000n, withdraw: 150_000n, burn: 120_000n, mint: 90_000n, transfer: 52_000n };

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

  constructor(
    private readonly marketRates: MarketRate[],
    private readonly feeBps: number,
    o: { chains?: ChainName[]; io?: 'immediate' | 'microtask' } = {},
  ) {
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
            if (c === chain && v > 0n) tokens.push({ asset: asset as Asset, balance: v });
          }
          for (const [k, v] of a.positions) {
            const [c, protocol, asset] = k.split('|');
            if (c === chain && v > 0n) positions.push({ protocol: protocol as Protocol, asset: asset as TokenAsset, token: instantToken(asset as TokenAsset), amount: v });
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
    return { chain, gasPriceWei: 1_000_000_000n, ethUsd: 3000 };
  }

  async estimateGas(_from: Address, tx: TxRequest): Promise<GasEstimate> {
    return { gas: TYPICAL_GAS[tx.kind], method: 'typical' };
  }

  async priceUsd(asset: Asset): Promise<number> {
    return STABLECOINS.includes(asset) ? 1 : 3000;
  }

  async send(signer: TxSigner, tx: TxRequest, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx> {
    await this.pause();
    const from = signer === 'relayer' ? BENCH_RELAYER : signer === 'faucet' ? FAUCET : signer.address;
    const nonceKey = `${tx.chain}|${from}`;
    const nonce = this.nonces.get(nonceKey) ?? 0;
    this.nonces.set(nonceKey, nonce + 1);
    // about the size of a signed EIP-1559 transaction in hex; a native hash stands in for keccak (only uniqueness matters here)
    const raw = toHex(JSON.stringify({ from, nonce, tx }, bigintJson));
    const txHash: Hex = `0x${createHash('sha256').update(raw).digest('hex')}`;
    const signed: SignedTx = { chain: tx.chain, kind: tx.kind, txHash, from, nonce, raw };
    await onSigned(signed);
    await this.pause();
    this.execute(signed.txHash, from, tx);
    return signed;
  }

  async rebroadcast(_chain: ChainName, _raw: Hex): Promise<void> {
    // every send executes at once, so a rebroadcast never finds an unknown transaction
  }

  async findReceipt(_chain: ChainName, hashes: readonly Hex[]): Promise<TxReceipt | null> {
    await this.pause();
    return hashes.map((h) => this.receipts.get(h)).find((r) => r !== undefined) ?? null;
  }

  async isKnown(_chain: ChainName, txHash: Hex): Promise<boolean> {
    return this.receipts.has(txHash);
  }

  async replace(): Promise<SignedTx> {
    throw new Error('every send executes at once: nothing is ever stuck, so nothing is replaced');
  }

  async messageReceived(_chain: ChainName, message: Hex): Promise<Hex | null> {
    return this.minted.get(message) ?? null;
  }

  async receipt(_chain: ChainName, txHash: Hex): Promise<TxReceipt | null> {
    await this.pause();
    return this.receipts.get(txHash) ?? null;
  }

  async attest(_chain: ChainName, burnTxHash: Hex): Promise<Attested> {
    await this.pause();
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

  /** Applies the transaction's effects; a failed condition reverts it (no effect). */
  private apply(hash: Hex, from: Address, tx: TxRequest): boolean {
    const a = this.account(from);
    switch (tx.kind) {
      case 'approve':
        a.allowances.set(`${tx.chain}|${tx.spender}|${tx.asset}`, tx.amount);
        return true;
      case 'revoke':
        a.allowances.set(`${tx.chain}|${tx.spender}|${tx.asset}`, 0n);
        return true;
      case 'supply': {
        const allowance = `${tx.chain}|${tx.protocol}|${tx.asset}`;
        if ((a.allowances.get(allowance) ?? 0n) < tx.amount || !take(a.balances, `${tx.chain}|${tx.asset}`, tx.amount)) return false;
        take(a.allowances, allowance, tx.amount);
        add(a.positions, `${tx.chain}|${tx.protocol}|${tx.asset}`, tx.amount);
        return true;
      }
      case 'withdraw': {
        const position = `${tx.chain}|${tx.protocol}|${tx.asset}`;
        const amount = tx.amount === 'max' ? (a.positions.get(position) ?? 0n) : tx.amount;
        if (!take(a.positions, position, amount)) return false;
        add(a.balances, `${tx.chain}|${tx.asset}`, amount);
        return true;
      }
      case 'burn': {
        const allowance = `${tx.chain}|bridge|USDC`;
        if ((a.allowances.get(allowance) ?? 0n) < tx.amount || !take(a.balances, `${tx.chain}|USDC`, tx.amount)) return false;
        take(a.allowances, allowance, tx.amount);
        this.burns.set(hash, { from, toChain: tx.toChain, amount: tx.amount, fast: tx.minFinalityThreshold <= 1000 });
        return true;
      }
      case 'mint': {
        const burn = this.burns.get(tx.message);
        if (burn === undefined || burn.toChain !== tx.chain) return false;
        this.burns.delete(tx.message);
        this.minted.set(tx.message, hash);
        const fee = burn.fast ? cctpFee(burn.amount, this.feeBps) : 0n;
        this.lastMinted = burn.amount - fee;
        this.feesCollected += fee;
        add(this.account(burn.from).balances, `${tx.chain}|USDC`, burn.amount - fee);
        return true;
      }
      case 'transfer':
        if (!take(a.balances, `${tx.chain}|${tx.asset}`, tx.amount)) return false;
        add(this.account(tx.to).balances, `${tx.chain}|${tx.asset}`, tx.amount);
        return true;
    }
  }

  private execute(hash: Hex, from: Address, tx: TxRequest): void {
    this.lastMinted = undefined;
    const ok = this.apply(hash, from, tx);
    this.txCount++;
    if (!ok) this.reverted++;
    const gasUsed = GAS[tx.kind];
    this.receipts.set(hash, {
      chain: tx.chain,
      txHash: hash,
      status: ok ? 'success' : 'reverted',
      gasUsed,
      gasCostWei: gasUsed * 1_000_000_000n,
      gasCostUsd: Number(gasUsed) / 10_000_000,
      blockNumber: this.block++,
      ...(ok && this.lastMinted !== undefined && { minted: this.lastMinted }),
    });
  }
}

function add(m: Map<string, bigint>, k: string, by: bigint): void {
  m.set(k, (m.get(k) ?? 0n) + by);
}

function take(m: Map<string, bigint>, k: string, amount: bigint): boolean {
  const have = m.get(k) ?? 0n;
  if (have < amount) return false;
  m.set(k, have - amount);
  return true;
}

/** The token contract the instant chain names for `asset` (the symbol's bytes as an address). */
export function instantToken(asset: TokenAsset): Address {
  return `0x${Buffer.from(asset.padEnd(20, '\0')).toString('hex')}` as Address;
}
