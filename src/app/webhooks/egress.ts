import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the service may send webhooks (SSRF). Only http and https URLs; the
 * host's addresses (every one DNS gives) must all be public. Refused:
 * private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), loopback
 * (127/8, ::1), link-local (169.254/16, fe80::/10), unspecified (0.0.0.0/8,
 * ::), multicast and reserved ranges, and IPv4 written inside IPv6
 * (::ffff:10.0.0.1 counts as 10.0.0.1). A sandbox outside production allows
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
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', '64:ff9b::', 96, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
];
const lists = new Map<AddressClass, BlockList>();
for (const [cls, net, prefix, type] of ranges) {
  let list = lists.get(cls);
  if (!list) lists.set(cls, (list = new BlockList()));
  list.addSubnet(net, prefix, type);
}

/** The IPv4 address an IPv6 one carries (::ffff:a.b.c.d, ::a.b.c.d), else null. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:0{0,4}:){0,5}(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address) ?? /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1]!;
  // ::ffff:7f00:1 written in hex
  const hex = /^(?:0{0,4}:){0,5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** What kind of address `address` (an IP literal, IPv6 without brackets) is; a malformed one is `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 && isIP(v4) === 4) return classifyAddress(v4);
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
