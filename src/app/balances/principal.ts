import type { ChainName, LendingProtocol, TokenAsset } from '../../domain/chains';
import type { PositionLedgerEntry } from '../../ports/store';

/** A lending position: one wallet's supply of one asset to one protocol on one chain. */
export interface PositionRef {
  chain: ChainName;
  protocol: LendingProtocol;
  asset: TokenAsset;
}

/** The key of a position within one wallet. */
export const positionKey = (p: PositionRef): string => `${p.chain}/${p.protocol}/${p.asset}`;

/**
 * The principal of one position after one ledger entry without an index
 * (smallest units; entries recorded before indices were kept).
 * A deposit adds what it supplied. A withdraw takes the accrued interest
 * first and the principal only for the rest: with the position read just
 * after it, that is min(principal, position after) (when the withdraw took
 * no more than the interest, the position after is still at least the
 * principal; when it took more, what remains is all principal). A withdraw
 * of everything leaves nothing, so the principal goes to 0. Without that
 * reading (the chain could not be read), the withdrawn amount comes off the
 * principal, never below 0: the interest it took then still shows as earned.
 */
export function applyEntry(principal: bigint, entry: Pick<PositionLedgerEntry, 'kind' | 'amount' | 'positionAfter'>): bigint {
  if (entry.kind === 'deposit') return principal + BigInt(entry.amount);
  if (entry.positionAfter !== undefined) {
    const after = BigInt(entry.positionAfter);
    return after < principal ? after : principal;
  }
  const left = principal - BigInt(entry.amount);
  return left > 0n ? left : 0n;
}

/** Each position's principal from a wallet's ledger entries (in ledger order); a position without entries is absent. */
export function principalsOf(entries: readonly PositionLedgerEntry[]): Map<string, bigint> {
  return new Map([...booksOf(entries)].map(([key, book]) => [key, book.principal]));
}

/**
 * What a position earned when the ledger has no index for it: its balance
 * less its principal (smallest units). Never below 0: right after a supply a protocol may report one unit less
 * than was supplied (Aave keeps a scaled balance, balance = scaled × index,
 * each rounded to the unit), and a withdraw made outside the service leaves
 * the ledger's principal above the position; neither is a loss of interest.
 */
export function earnedOn(balance: bigint, principal: bigint): bigint {
  return balance > principal ? balance - principal : 0n;
}

/** A position's figures, or null when the ledger has no entry of it (funds the service never saw supplied: no guess). */
export function positionEarnings(books: ReadonlyMap<string, PositionBook>, position: PositionRef & { amount: bigint; index?: bigint }): PositionFigures | null {
  const book = books.get(positionKey(position));
  return book === undefined ? null : figuresOf(book, position);
}

/** The ray (1e27) the supply indices are scaled by (SUPPLY_INDEX_ONE of the chain port). */
const RAY = 10n ** 27n;

/** Units → the protocol's scaled balance at `index`, rounded half up (Aave's rayDiv). */
const toScaled = (units: bigint, index: bigint): bigint => (units * RAY + index / 2n) / index;

/** A scaled balance → units at `index`, rounded half up (Aave's rayMul). */
export const scaledValue = (scaled: bigint, index: bigint): bigint => (scaled * index + RAY / 2n) / RAY;

/**
 * What the ledger knows of one position, folded from its entries (smallest
 * units): `principal` is what the user put in and kept there (a rebalance
 * carries its principal over, interest apart); `scaled` is the service's own
 * share of the position in the protocol's scaled units (amount / index at
 * each entry), null when an entry had no index (then only balance − principal
 * can be said); `interestOut` is the interest withdraws took out of it, and
 * `interestIn` what a rebalance's deposit brought in as interest earned
 * elsewhere (counted where it was earned, not twice).
 */
export interface PositionBook {
  principal: bigint;
  scaled: bigint | null;
  interestOut: bigint;
  interestIn: bigint;
}

const emptyBook = (): PositionBook => ({ principal: 0n, scaled: 0n, interestOut: 0n, interestIn: 0n });

/** What one withdraw took of a position's principal and of its interest; what it took beyond the service's share came from supplies made by others. */
function withdrawFrom(book: PositionBook, entry: PositionLedgerEntry): { principal: bigint; interest: bigint; external: bigint } {
  const amount = BigInt(entry.amount);
  if (book.scaled === null || entry.index === undefined) {
    const principal = applyEntry(book.principal, entry);
    book.scaled = null;
    const taken = { principal: book.principal - principal, interest: 0n, external: 0n };
    taken.interest = amount - taken.principal;
    book.principal = principal;
    return taken;
  }
  const index = BigInt(entry.index);
  const own = scaledValue(book.scaled, index);
  const fromOwn = amount < own ? amount : own;
  book.scaled = fromOwn === own ? 0n : book.scaled - toScaled(fromOwn, index);
  if (book.scaled < 0n) book.scaled = 0n;
  // interest first: the principal keeps what the service's share still holds, up to itself
  // (and no more than the position read just after: the protocol may round the withdraw's share up by a unit)
  let left = own - fromOwn;
  if (entry.positionAfter !== undefined && BigInt(entry.positionAfter) < left) left = BigInt(entry.positionAfter);
  const principal = left < book.principal ? left : book.principal;
  const taken = { principal: book.principal - principal, interest: 0n, external: amount - fromOwn };
  taken.interest = fromOwn - taken.principal;
  book.principal = principal;
  return taken;
}

/**
 * Each position's book from a wallet's ledger entries (in ledger order); a
 * position without entries is absent. A deposit adds its amount to the
 * principal, unless the same intent withdrew first (a rebalance): then the
 * interest its withdraws took stays interest (the new position's principal
 * is what the user had supplied, less the move's fees) and only the rest is
 * principal. What a withdraw took from supplies made by others becomes the
 * user's principal where the rebalance puts it.
 */
export function booksOf(entries: readonly PositionLedgerEntry[]): Map<string, PositionBook> {
  const out = new Map<string, PositionBook>();
  /** Per rebalance: the interest its withdraws took, not yet put into its deposit. */
  const carried = new Map<string, bigint>();
  for (const e of entries) {
    const key = positionKey(e);
    const book = out.get(key) ?? emptyBook();
    out.set(key, book);
    if (e.kind === 'withdraw') {
      const taken = withdrawFrom(book, e);
      book.interestOut += taken.interest;
      carried.set(e.intentId, (carried.get(e.intentId) ?? 0n) + taken.interest);
      continue;
    }
    const amount = BigInt(e.amount);
    const interest = carried.get(e.intentId) ?? 0n;
    const asInterest = interest > amount ? amount : interest > 0n ? interest : 0n;
    carried.delete(e.intentId);
    book.principal += amount - asInterest;
    book.interestIn += asInterest;
    book.scaled = book.scaled === null || e.index === undefined ? null : book.scaled + toScaled(amount, BigInt(e.index));
  }
  return out;
}

/** A position's figures (smallest units): `external` is absent when the ledger has no index for it (then earned = balance − principal, never below 0). */
export interface PositionFigures {
  principal: bigint;
  /** Interest the service's share accrued (carried-in interest included), net of nothing else. */
  earned: bigint;
  /** The part of the position supplied by others (someone's supply on the wallet's behalf): not interest. */
  external?: bigint;
}

/**
 * A position's principal, earned and external, from its book and the
 * position read on chain (balance and its market's index now). With indices:
 * the service's share is its scaled balance × the index now (at most the
 * balance), earned = share − principal, external = balance − share. Without:
 * earned = balance − principal, never below 0 (earnedOn).
 */
export function figuresOf(book: PositionBook, position: { amount: bigint; index?: bigint }): PositionFigures {
  if (book.scaled === null || position.index === undefined) return { principal: book.principal, earned: earnedOn(position.amount, book.principal) };
  const value = scaledValue(book.scaled, position.index);
  const own = value < position.amount ? value : position.amount;
  return { principal: book.principal, earned: own - book.principal, external: position.amount - own };
}

/** The interest a position accrued over its life while the service's: what it earned and holds, plus what withdraws took out, less what was carried in from elsewhere. */
export const lifetimeInterest = (book: PositionBook, figures: PositionFigures): bigint => figures.earned + book.interestOut - book.interestIn;
