import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { readCookie, refuseCrossSite, sessionCookieHeader } from '../../../src/http/sessionCookie';
import { errorStatus } from '../../../src/http/errorStatus';
import { openToken, sealToken } from '../../../src/app/dashboard/sessions';

/**
 * The dashboard session's pieces that need no server: reading the cookie,
 * the cross-site request forgery gate, and the signed cookie value.
 */
describe('readCookie', () => {
  test('behavior: finds the named cookie among several, whatever its position and spacing', () => {
    expect(readCookie('a=1; svc_session=abc; b=2', 'svc_session')).toBe('abc');
    expect(readCookie('svc_session=abc;b=2', 'svc_session')).toBe('abc');
    expect(readCookie('a=1;   svc_session=abc  ', 'svc_session')).toBe('abc');
    expect(readCookie('a=1; b=2', 'b')).toBe('2');
  });

  test('behavior: the first occurrence wins; a longer name sharing a suffix or prefix is another cookie', () => {
    expect(readCookie('svc_session=first; svc_session=second', 'svc_session')).toBe('first');
    expect(readCookie('xsvc_session=no; svc_session_old=no; svc_session=yes', 'svc_session')).toBe('yes');
  });

  test('behavior: a quoted value is unquoted; percent-encoding is decoded; "=" inside a value is kept', () => {
    expect(readCookie('svc_session="abc.def"', 'svc_session')).toBe('abc.def');
    expect(readCookie('svc_session=a%2Bb%3D', 'svc_session')).toBe('a+b=');
    expect(readCookie('svc_session=a=b=c', 'svc_session')).toBe('a=b=c');
    // a lone quote is not a quoted value
    expect(readCookie('svc_session="abc', 'svc_session')).toBe('"abc');
  });

  test('edge: a missing header, a missing cookie, and parts without "=" give undefined', () => {
    expect(readCookie(undefined, 'svc_session')).toBeUndefined();
    expect(readCookie('', 'svc_session')).toBeUndefined();
    expect(readCookie('a=1; b=2', 'svc_session')).toBeUndefined();
    expect(readCookie('svc_session; a=1', 'svc_session')).toBeUndefined();
    expect(readCookie(';;;', 'svc_session')).toBeUndefined();
  });

  test('edge: bad percent-encoding gives undefined instead of throwing', () => {
    expect(readCookie('svc_session=%E0%A4%A', 'svc_session')).toBeUndefined();
    expect(readCookie('svc_session=%', 'svc_session')).toBeUndefined();
    expect(readCookie('svc_session=%zz; other=1', 'svc_session')).toBeUndefined();
  });

  test('behavior: an empty value reads as the empty string (openToken refuses it)', () => {
    expect(readCookie('svc_session=', 'svc_session')).toBe('');
  });
});

describe('sessionCookieHeader', () => {
  test('behavior: HttpOnly, SameSite=Lax, Path=/, Max-Age in whole seconds; Secure only when asked', () => {
    const plain = sessionCookieHeader('tok.sig', 43_200, false).split('; ');
    expect(plain).toEqual(['svc_session=tok.sig', 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=43200']);
    expect(sessionCookieHeader('tok.sig', 43_200, true).split('; ')).toContain('Secure');
    expect(sessionCookieHeader('', -5.5, false)).toContain('Max-Age=0');
  });

  test('behavior: a value readCookie takes back unchanged, even with characters a cookie cannot carry raw', () => {
    const value = 'a b;c=d,"e"%';
    const header = sessionCookieHeader(value, 60, false).split('; ')[0]!;
    expect(readCookie(`x=1; ${header}`, 'svc_session')).toBe(value);
  });
});

describe('refuseCrossSite', () => {
  const HOST = 'svc.internal:3000';
  const PUBLIC = 'https://api.example.com';
  const req = (method: string, headers: Record<string, string>): Pick<IncomingMessage, 'headers' | 'method'> => ({
    method,
    headers: { host: HOST, ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) },
  });
  const reason = (r: ReturnType<typeof refuseCrossSite>) =>
    r ? { code: r.code, status: errorStatus(r), reason: (r.details as { reason?: string }).reason } : null;

  test.each([
    ['POST + application/json', 'POST', { 'content-type': 'application/json' }],
    ['POST + application/json; charset=utf-8', 'POST', { 'content-type': 'Application/JSON; charset=utf-8' }],
    ['POST + X-Requested-With (any content type)', 'POST', { 'content-type': 'text/plain', 'x-requested-with': 'dashboard' }],
    ['POST + X-Requested-With, no content type', 'POST', { 'x-requested-with': 'XMLHttpRequest' }],
    ['POST + json + own Origin by Host (http)', 'POST', { 'content-type': 'application/json', origin: `http://${HOST}` }],
    ['POST + json + own Origin by Host (https)', 'POST', { 'content-type': 'application/json', origin: `https://${HOST}` }],
    ['POST + json + the PUBLIC_URL origin', 'POST', { 'content-type': 'application/json', origin: PUBLIC }],
  ])('behavior: %s is allowed', (_name, method, headers) => {
    expect(refuseCrossSite(req(method, headers), PUBLIC)).toBeNull();
  });

  test.each([
    ['POST + form', 'POST', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['POST + multipart', 'POST', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['POST + text/plain', 'POST', { 'content-type': 'text/plain' }],
    ['POST + json-looking text/plain', 'POST', { 'content-type': 'text/plain; application/json' }],
    ['POST + no content type', 'POST', {}],
    ['GET', 'GET', {}],
    ['GET + json + X-Requested-With', 'GET', { 'content-type': 'application/json', 'x-requested-with': 'dashboard' }],
    ['PUT + json', 'PUT', { 'content-type': 'application/json' }],
  ])('error: %s is refused as csrf', (_name, method, headers) => {
    expect(reason(refuseCrossSite(req(method, headers), PUBLIC))).toEqual({ code: 'FORBIDDEN', status: 403, reason: 'csrf' });
  });

  test.each([
    ['a foreign site', 'https://evil.example'],
    ['the public host over the other scheme', 'http://api.example.com'],
    ['the own host on another port', 'http://svc.internal:3001'],
    ['a look-alike suffix', 'https://api.example.com.evil.example'],
    ['an opaque origin', 'null'],
  ])('error: a POST with JSON from %s is refused as origin', (_name, origin) => {
    const r = refuseCrossSite(req('POST', { 'content-type': 'application/json', 'x-requested-with': 'dashboard', origin }), PUBLIC);
    expect(reason(r)).toEqual({ code: 'FORBIDDEN', status: 403, reason: 'origin' });
  });

  test('edge: without PUBLIC_URL only the Host origins are the service’s own', () => {
    expect(refuseCrossSite(req('POST', { 'content-type': 'application/json', origin: `http://${HOST}` }), undefined)).toBeNull();
    expect(reason(refuseCrossSite(req('POST', { 'content-type': 'application/json', origin: PUBLIC }), undefined))).toMatchObject({ reason: 'origin' });
  });

  test('edge: without a Host header a foreign Origin is still refused', () => {
    const r = refuseCrossSite({ method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' } }, PUBLIC);
    expect(reason(r)).toMatchObject({ reason: 'origin' });
  });
});

describe('sealToken / openToken', () => {
  const secret = randomBytes(32);
  const token = randomBytes(32).toString('base64url');

  test('behavior: a sealed token opens again with the same secret', () => {
    const sealed = sealToken(secret, token);
    expect(sealed.startsWith(`${token}.`)).toBe(true);
    expect(openToken(secret, sealed)).toBe(token);
  });

  test('error: an altered token or signature does not open', () => {
    const sealed = sealToken(secret, token);
    const [t, sig] = sealed.split('.') as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect(openToken(secret, `${flip(t, 0)}.${sig}`)).toBeNull();
    expect(openToken(secret, `${flip(t, t.length - 1)}.${sig}`)).toBeNull();
    expect(openToken(secret, `${t}.${flip(sig, 0)}`)).toBeNull();
    expect(openToken(secret, `${t}.${flip(sig, sig.length - 1)}`)).toBeNull();
    expect(openToken(secret, `${t}.${sig.slice(0, -1)}`)).toBeNull();
    expect(openToken(secret, `${t}.${sig}x`)).toBeNull();
    expect(openToken(secret, `${t}.`)).toBeNull();
    // another token with this token's signature
    expect(openToken(secret, `${randomBytes(32).toString('base64url')}.${sig}`)).toBeNull();
  });

  test('error: a token sealed with another secret does not open', () => {
    expect(openToken(randomBytes(32), sealToken(secret, token))).toBeNull();
  });

  test('edge: undefined, empty, no dot, a leading dot or an overlong value give null', () => {
    expect(openToken(secret, undefined)).toBeNull();
    expect(openToken(secret, '')).toBeNull();
    expect(openToken(secret, token)).toBeNull();
    expect(openToken(secret, `.${sealToken(secret, '').slice(1)}`)).toBeNull();
    expect(openToken(secret, '.')).toBeNull();
    const long = 'a'.repeat(200);
    expect(openToken(secret, sealToken(secret, long))).toBeNull();
  });

  test('behavior: the signature covers the whole token (a dot inside the signature part is not a second field)', () => {
    const sealed = sealToken(secret, token);
    expect(openToken(secret, `${sealed}.extra`)).toBeNull();
  });
});
