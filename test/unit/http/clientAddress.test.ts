import type { IncomingMessage } from 'node:http';
import { createClientAddress } from '../../../src/http/clientAddress';
import { ConfigError, loadConfig } from '../../../src/config';

/** A request as the client-address rule reads it: the connecting peer and X-Forwarded-For. */
const req = (peer: string, forwardedFor?: string | string[]) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('the client address (TRUSTED_PROXIES)', () => {
  test('security: with no trusted proxies X-Forwarded-For is ignored: the peer is the client', () => {
    const address = createClientAddress([]);
    expect(address(req('203.0.113.7', '198.51.100.1'))).toBe('203.0.113.7');
    expect(address(req('::ffff:203.0.113.7'))).toBe('203.0.113.7');
  });

  test("security: an untrusted peer's X-Forwarded-For is ignored, whatever it claims", () => {
    const address = createClientAddress(['10.0.0.0/8']);
    expect(address(req('203.0.113.7', '10.0.0.1, 198.51.100.1'))).toBe('203.0.113.7');
  });

  test('behavior: a trusted peer: the hop it appended is the client; hops left of it (written by the client) are ignored', () => {
    const address = createClientAddress(['10.0.0.5']);
    expect(address(req('10.0.0.5', '198.51.100.1'))).toBe('198.51.100.1');
    expect(address(req('::ffff:10.0.0.5', 'forged-by-client, 1.2.3.4, 198.51.100.1'))).toBe('198.51.100.1');
    // no header: the proxy itself is all there is
    expect(address(req('10.0.0.5'))).toBe('10.0.0.5');
  });

  test('behavior: a chain of trusted proxies (CIDR ranges, IPv6) is walked from the right to the first untrusted hop', () => {
    const address = createClientAddress(['10.0.0.0/8', 'fd00::/8', '192.0.2.1']);
    expect(address(req('10.1.2.3', '203.0.113.9, 198.51.100.1, 192.0.2.1, fd00::1'))).toBe('198.51.100.1');
    // headers sent twice are one list; ports and brackets proxies add are dropped
    expect(address(req('fd00::2', ['203.0.113.9', '198.51.100.2:4711, [fd00::3]:443']))).toBe('198.51.100.2');
    // every hop trusted: the leftmost
    expect(address(req('10.0.0.1', '10.0.0.2, 10.0.0.3'))).toBe('10.0.0.2');
  });

  test('security: a malformed hop stops the walk at the last trusted hop (never at what the client wrote)', () => {
    const address = createClientAddress(['10.0.0.0/8']);
    expect(address(req('10.0.0.1', '198.51.100.1, not-an-ip, 10.0.0.9'))).toBe('10.0.0.9');
    expect(address(req('10.0.0.1', 'garbage'))).toBe('10.0.0.1');
  });

  test('error: TRUSTED_PROXIES must list IP addresses or CIDR ranges; default empty', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ,192.0.2.1' }).trustedProxies).toEqual(['10.0.0.0/8', '::1', '192.0.2.1']);
    for (const bad of ['proxy.example.com', '10.0.0.0/33', '::1/129', '10.0.0.1/8/1', '10.0.0.0/x']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUSTED_PROXIES: 'nonsense' })).toThrow(/TRUSTED_PROXIES/);
  });
});
