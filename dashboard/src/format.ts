/** Formatting in the user's locale (dates, counts); US dollars always as $x.xx. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const shortTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const count = new Intl.NumberFormat();
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

function parse(iso: string): Date | null {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDateTime(iso: string): string {
  const d = parse(iso);
  return d ? dateTime.format(d) : iso;
}

export function formatDate(iso: string): string {
  const d = parse(iso);
  return d ? dateOnly.format(d) : iso;
}

export function formatTime(iso: string): string {
  const d = parse(iso);
  return d ? timeOnly.format(d) : iso;
}

export function formatShortTime(iso: string): string {
  const d = parse(iso);
  return d ? shortTime.format(d) : iso;
}

export function formatCount(n: number): string {
  return count.format(n);
}

/** "used / limit", the limit "unlimited" when null. */
export function formatUsedOf(used: number, limit: number | null): string {
  return `${count.format(used)} / ${limit === null ? 'unlimited' : count.format(limit)}`;
}

export function formatUsd(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : usd.format(value);
}

export function formatApy(apy: number): string {
  return `${apy.toFixed(2)}%`;
}

/** ARBITRUM_SEPOLIA → "Arbitrum Sepolia". */
export function formatEnum(value: string): string {
  return value
    .toLowerCase()
    .split('_')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

export const formatChain = formatEnum;

/** 0x1234…abcd (the whole value when it is short already). */
export function shortenHex(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

const EXPLORERS: Record<string, string> = {
  ETHEREUM: 'https://etherscan.io',
  ETHEREUM_SEPOLIA: 'https://sepolia.etherscan.io',
  ARBITRUM: 'https://arbiscan.io',
  ARBITRUM_SEPOLIA: 'https://sepolia.arbiscan.io',
  BASE: 'https://basescan.org',
  BASE_SEPOLIA: 'https://sepolia.basescan.org',
};

/** The public explorer page of a transaction, or null for a chain without one. */
export function explorerTxUrl(chain: string, txHash: string): string | null {
  const base = EXPLORERS[chain];
  if (!base || !/^0x[0-9a-fA-F]+$/.test(txHash)) return null;
  return `${base}/tx/${txHash}`;
}

/** A lending protocol as people write it: the GraphQL enum AAVE_V3 is aave-v3, as in the yields report. */
export function formatProtocol(protocol: string): string {
  return protocol.toLowerCase().replace(/_/g, '-');
}

/** A lending market as the pages write it: "aave-v3 on Base Sepolia". */
export function formatMarket(m: { chain: string; protocol: string }): string {
  return `${formatProtocol(m.protocol)} on ${formatChain(m.chain)}`;
}

/** BELOW_THRESHOLD → "below threshold". */
export function formatReason(reason: string): string {
  return reason.toLowerCase().replace(/_/g, ' ');
}
