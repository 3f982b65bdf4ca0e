import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the service may send webhooks (SSRF). Only http and https URLs; the
 * host's addresses (every one DNS gives) must all be public. Refused:
 * private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), loopback
 * (127/8, ::1), link-local (169.254/16, fe80::/10), site-local (fec0::/10),
 * unspecified (0.0.0.0/8, ::), multicast and reserved ranges, and IPv4
 * carried inside IPv6 (mapped, compatible, translated, NAT64, 6to4, Teredo:
 * embeddedIpv4), judged by the IPv4 rules. A sandbox outside production allows
 * loopback only (a receiver on the developer's machine); nothing else.
 *
 * The check runs when an endpoint is created (400 naming `url`) and again at
 * every attempt, and the attempt connects to the very address it checked (a
 * pinned lookup), so a name re-pointed in between (DNS rebinding) cannot
 * reach an internal address.
 */

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

const ranges: [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  // site-local, deprecated (RFC 3879) but still routed inside some networks
  ['private', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
];
const lists = new Map<AddressClass, BlockList>();
for (const [cls, net, prefix, type] of ranges) {
  let list = lists.get(cls);
  if (!list) lists.set(cls, (list = new BlockList()));
  list.addSubnet(net, prefix, type);
}

/** The eight 16-bit groups of an IPv6 literal (zone id dropped, a trailing dotted quad read as two groups), or null. */
function ipv6Groups(address: string): number[] | null {
  let a = address.replace(/%.*$/, '').toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (quad) {
    const b = quad.slice(1).map(Number);
    if (b.some((x) => x > 255)) return null;
    a = `${a.slice(0, quad.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
  return groups.some(Number.isNaN) ? null : groups;
}

const dotted = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * What an IPv6 address says about the IPv4 one it carries, for the forms a
 * packet can be turned into IPv4 by (the host's stack, a relay, a NAT64
 * gateway): the IPv4 address to apply the IPv4 rules to, or a class of its
 * own; null when the address carries none.
 *
 * - ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated),
 *   ::ffff:0:a.b.c.d (translated, SIIT), 64:ff9b::a.b.c.d (well-known NAT64)
 *   and 2002:AABB:CCDD::/48 (6to4): the embedded IPv4 address.
 * - 2001:0::/32 (Teredo): the client address (last 32 bits, inverted) and the
 *   server address (bits 32-63); refused as a whole (no receiver lives on a
 *   Teredo tunnel), with the class of a non-public embedded address.
 * - 64:ff9b:1::/48 (local-use NAT64): where the IPv4 address sits depends on
 *   the operator's prefix length, so it cannot be read: private.
 */
function embeddedIpv4(g: number[]): { v4: string } | { cls: AddressClass } | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return { v4: dotted(g[6]!, g[7]!) };
  // :: and ::1 are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return { v4: dotted(g[6]!, g[7]!) };
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return { v4: dotted(g[6]!, g[7]!) };
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return { v4: dotted(g[6]!, g[7]!) };
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return { cls: 'private' };
  if (g[0] === 0x2002) return { v4: dotted(g[1]!, g[2]!) };
  if (g[0] === 0x2001 && g[1] === 0) {
    const client = classifyAddress(dotted(g[6]! ^ 0xffff, g[7]! ^ 0xffff));
    const server = classifyAddress(dotted(g[2]!, g[3]!));
    return { cls: client !== 'public' ? client : server !== 'public' ? server : 'reserved' };
  }
  return null;
}

/** What kind of address `address` (an IP literal, IPv6 without brackets) is; a malformed one is `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const groups = ipv6Groups(address);
    if (!groups) return 'reserved';
    const embedded = embeddedIpv4(groups);
    if (embedded) return 'cls' in embedded ? embedded.cls : classifyAddress(embedded.v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of lists) if (list.check(address, type)) return cls;
  return 'public';
}

/** The egress rule: loopback allowed (a sandbox outside production) or not. */
export interface EgressPolicy {
  allowLoopback: boolean;
  /** DNS resolution (tests inject one); default: the system resolver, every address. */
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  /**
   * Where why a URL was refused or a delivery failed is told in full (the
   * server log): callers of the API only learn "not delivered" and a status
   * class (publicOutcome), never which address a name resolved to or how a
   * connection failed, so an endpoint cannot be used to probe the network.
   */
  explain?: (detail: { host: string; reason: string }, msg: string) => void;
}

/** What an API caller is told of a refused URL: the same words whatever the rule and the address. */
export const REFUSED_DESTINATION = 'is not a destination webhooks may reach: it must be http(s) and resolve to public addresses only';

/**
 * What an API caller is told of a failed attempt: "not delivered" and the
 * class of the endpoint's answer ("not delivered (4xx)"), or "no answer" when
 * there was none (refused destination, DNS, connection, timeout alike).
 */
export function publicOutcome(statusCode: number | null): string {
  return statusCode === null || statusCode < 100 || statusCode > 599 ? 'not delivered (no answer)' : `not delivered (${Math.floor(statusCode / 100)}xx)`;
}

/** Why a URL or address is refused (the message names the rule), or null when allowed. */
export function refusalOf(cls: AddressClass, policy: Pick<EgressPolicy, 'allowLoopback'>): string | null {
  if (cls === 'public') return null;
  if (cls === 'loopback' && policy.allowLoopback) return null;
  return `resolves to a ${cls} address, which webhooks may not reach${cls === 'loopback' ? ' outside a sandbox' : ''}`;
}

export class EgressRefused extends Error {
  override readonly name = 'EgressRefused';
}

/** The URL's scheme problem, or null for http and https. */
export function schemeProblem(url: URL): string | null {
  return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http or https URL';
}

const DNS_TIMEOUT_MS = 5_000;

/**
 * The address to connect to for `url`: every address its host resolves to
 * must be allowed (one forbidden address refuses the URL), and the first is
 * returned, to be connected to as it is. Throws EgressRefused naming the rule;
 * a name that does not resolve throws the resolver's error.
 */
export async function resolveAllowed(url: URL, policy: EgressPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const scheme = schemeProblem(url);
  if (scheme) throw new EgressRefused(scheme);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    const lookup = policy.lookup ?? ((h: string) => dnsLookup(h, { all: true, verbatim: true }));
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        lookup(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} timed out`)), DNS_TIMEOUT_MS);
          timer.unref();
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw new Error(`${host} has no address`);
  }
  for (const a of addresses) {
    const refusal = refusalOf(classifyAddress(a.address), policy);
    if (refusal) throw new EgressRefused(`${host} ${refusal} (${a.address})`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
