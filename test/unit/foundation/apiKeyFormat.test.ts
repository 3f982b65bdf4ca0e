import { API_KEY_PATTERN, bearerToken, digestsEqual, displayPrefix, generateApiKey, hashApiKey } from '../../../src/app/accounts/apiKeyFormat';

describe('API key format and hash', () => {
  test('behavior: a generated key is svc_sk_ + 64 lowercase hex (256 bits), and never repeats', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const k of keys) expect(k).toMatch(/^svc_sk_[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('behavior: the pattern accepts exactly the spec format', () => {
    expect(API_KEY_PATTERN.test(`svc_sk_${'0'.repeat(64)}`)).toBe(true);
    for (const bad of [
      `svc_sk_${'0'.repeat(63)}`,
      `svc_sk_${'0'.repeat(65)}`,
      `svc_sk_${'A'.repeat(64)}`,
      `svc_sk_${'g'.repeat(64)}`,
      `svc_pk_${'0'.repeat(64)}`,
      ` svc_sk_${'0'.repeat(64)}`,
    ]) {
      expect(API_KEY_PATTERN.test(bad)).toBe(false);
    }
  });

  test('behavior: the stored hash is SHA-256 hex (known vector) and deterministic', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const k = generateApiKey();
    expect(hashApiKey(k)).toBe(hashApiKey(k));
    expect(hashApiKey(k)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(k)).not.toContain(k.slice(7));
  });

  test('behavior: the display prefix shows svc_sk_ and 4 hex characters only', () => {
    expect(displayPrefix(`svc_sk_abcd${'0'.repeat(60)}`)).toBe('svc_sk_abcd');
  });

  test('behavior: digestsEqual compares digests, false for other lengths', () => {
    const h = hashApiKey('x');
    expect(digestsEqual(h, hashApiKey('x'))).toBe(true);
    expect(digestsEqual(h, hashApiKey('y'))).toBe(false);
    expect(digestsEqual(h, h.slice(0, 62))).toBe(false);
  });

  test('behavior: bearerToken reads "Bearer <token>" (any case) and nothing else', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    for (const h of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'abc']) expect(bearerToken(h)).toBeNull();
  });
});
