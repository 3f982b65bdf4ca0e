import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** The address of the client behind a request, as every limit keyed by address counts it. */
export type ClientAddress = (req: IncomingMessage) => string;

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) as `10.0.0.1`, so one client has one spelling. */
function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped ? mapped[1]! : address).toLowerCase();
}

/** One X-Forwarded-For hop as an address: a port or brackets some proxies add are dropped; null when it is no address. */
function hopAddress(hop: string): string | null {
  let h = hop.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(h);
  if (bracketed) h = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(h)) h = h.slice(0, h.lastIndexOf(':'));
  return isIP(h) === 0 ? null : normalize(h);
}

/**
 * Why a TRUSTED_PROXIES entry is not an IP address or a CIDR range (`10.0.0.0/8`,
 * `fd00::/8`); null when it is one.
 */
export function trustedProxyProblem(entry: string): string | null {
  const [address, prefix, ...rest] = entry.trim().split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return `"${entry.trim()}" is not an IP address or CIDR range`;
  if (prefix === undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return `"${entry.trim()}" has a prefix length outside 0–${max}`;
  return null;
}

/**
 * The client address of a request (the one rule for it, used by REST and
 * GraphQL alike). With no trusted proxies it is the connecting peer:
 * X-Forwarded-For is anybody's to write. When the peer is one of `trusted`
 * (addresses or CIDR ranges, validated by config), X-Forwarded-For is read
 * from the right, each hop appended by the proxy before it, and the first
 * hop that is not a trusted proxy is the client; what lies left of it was
 * written by the client itself and is ignored. A malformed hop stops the walk
 * at the last trusted hop; a chain of trusted proxies only gives its leftmost.
 */
export function createClientAddress(trusted: readonly string[]): ClientAddress {
  const list = new BlockList();
  for (const entry of trusted) {
    const [address, prefix] = entry.trim().split('/');
    const a = normalize(address!);
    const type = isIP(a) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(a, type);
    else list.addSubnet(a, Number(prefix), type);
  }
  const isTrusted = (address: string) => list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  return (req) => {
    const peer = normalize(req.socket.remoteAddress ?? '');
    if (trusted.length === 0 || isIP(peer) === 0 || !isTrusted(peer)) return peer;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').filter((h) => h.trim() !== '');
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hopAddress(hops[i]!);
      if (hop === null) break;
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return client;
  };
}
