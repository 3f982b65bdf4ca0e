import { Webhook } from 'standardwebhooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { classifyAddress, EgressRefused, publicOutcome, resolveAllowed } from '../../../src/app/webhooks/egress';
import { sendWebhook } from '../../../src/app/webhooks/send';
import { createSecretBox, generateSecret, signatureOf } from '../../../src/app/webhooks/secrets';
import { eventsFor, messageId } from '../../../src/app/webhooks/dispatcher';
import { nextAttemptAt, RETRY_WINDOW_STEPS } from '../../../src/domain/webhooks';
import { createWebhookSchema } from '../../../src/domain/schemas/webhooks';

describe('egress: the address classifier', () => {
  test.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['not-an-ip', 'reserved'],
  ])('behavior: %s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  // IPv6 forms that carry an IPv4 address: the IPv4 rules decide, whatever the IPv6 prefix looks like.
  test.each([
    ['::7f00:1', 'loopback', 'IPv4-compatible 127.0.0.1'],
    ['::a00:1', 'private', 'IPv4-compatible 10.0.0.1'],
    ['::ffff:0:7f00:1', 'loopback', 'IPv4-translated 127.0.0.1'],
    ['::ffff:0:a9fe:a9fe', 'link-local', 'IPv4-translated 169.254.169.254'],
    ['2002:a9fe:a9fe::1', 'link-local', '6to4 of 169.254.169.254'],
    ['2002:7f00:1::', 'loopback', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', 'private', '6to4 of 192.168.1.1'],
    ['fec0::1', 'private', 'site-local'],
    ['feff::1', 'private', 'site-local, top of the range'],
    ['64:ff9b:1::a9fe:a9fe', 'private', 'local-use NAT64'],
    ['64:ff9b:1:ffff::1', 'private', 'local-use NAT64, another prefix length'],
    ['64:ff9b::7f00:1', 'loopback', 'well-known NAT64 of 127.0.0.1'],
    ['64:ff9b::10.0.0.1', 'private', 'well-known NAT64 of 10.0.0.1'],
    ['64:ff9b::169.254.169.254', 'link-local', 'well-known NAT64 of 169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', 'Teredo with client 127.0.0.1'],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private', 'Teredo with server 10.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'reserved', 'Teredo between public addresses'],
    ['::0.0.0.2', 'unspecified', 'IPv4-compatible 0.0.0.2'],
    ['fe80::1%eth0', 'link-local', 'link-local with a zone'],
  ])('behavior: %s is %s (%s)', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  test.each([
    ['64:ff9b::8.8.8.8', 'well-known NAT64 of a public address'],
    ['2002:808:808::1', '6to4 of a public address'],
    ['2001:4860:4860::8888', 'outside Teredo (2001:4860::/32)'],
    ['fbff::1', 'just below the unique-local range'],
  ])('behavior: %s is public (%s)', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });

  test('behavior: URLs naming the IPv6 transition forms of private addresses are refused, also in a sandbox', async () => {
    for (const host of [
      '[::7f00:1]',
      '[::ffff:0:7f00:1]',
      '[2002:a9fe:a9fe::1]',
      '[fec0::1]',
      '[64:ff9b:1::a00:1]',
      '[64:ff9b::a00:1]',
      '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
    ]) {
      await expect(resolveAllowed(new URL(`http://${host}/hook`), { allowLoopback: false })).rejects.toBeInstanceOf(EgressRefused);
    }
    for (const host of ['[2002:a9fe:a9fe::1]', '[fec0::1]', '[64:ff9b:1::a00:1]', '[64:ff9b::a00:1]']) {
      await expect(resolveAllowed(new URL(`http://${host}/hook`), { allowLoopback: true })).rejects.toBeInstanceOf(EgressRefused);
    }
  });

  test('behavior: just outside a private range is public (172.15.x, 172.32.x, 192.169.x)', () => {
    expect(['172.15.255.255', '172.32.0.0', '192.169.0.1', '11.0.0.1'].map(classifyAddress)).toEqual(['public', 'public', 'public', 'public']);
  });

  const resolver = (map: Record<string, string[]>) => async (h: string) =>
    (map[h] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  test('behavior: production refuses loopback, private and link-local; a sandbox allows loopback only', async () => {
    const lookup = resolver({
      'hooks.example': ['93.184.216.34'],
      'local.example': ['127.0.0.1'],
      'intranet.example': ['10.0.0.7'],
      'mixed.example': ['93.184.216.34', '192.168.0.2'],
    });
    const prod = { allowLoopback: false, lookup };
    const sandbox = { allowLoopback: true, lookup };
    await expect(resolveAllowed(new URL('https://hooks.example/x'), prod)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    for (const url of [
      'http://local.example/',
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://intranet.example/',
      'http://mixed.example/',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/',
    ]) {
      await expect(resolveAllowed(new URL(url), prod)).rejects.toBeInstanceOf(EgressRefused);
    }
    await expect(resolveAllowed(new URL('http://127.0.0.1:8080/'), sandbox)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(resolveAllowed(new URL('http://local.example/'), sandbox)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    for (const url of ['http://intranet.example/', 'http://169.254.169.254/', 'http://[fe80::1]/', 'http://mixed.example/']) {
      await expect(resolveAllowed(new URL(url), sandbox)).rejects.toBeInstanceOf(EgressRefused);
    }
    await expect(resolveAllowed(new URL('ftp://hooks.example/'), sandbox)).rejects.toThrow('http or https');
  });
});

describe('signing: Standard Webhooks', () => {
  test('behavior: the standardwebhooks package verifies what the service signs; a changed body or another secret does not verify', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: 'intent.completed', timestamp: '2026-01-31T12:00:00.000Z', data: { id: 'intent_1' } });
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signatureOf(secret, 'msg_1', ts, body) };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', new Date(ts * 1000), body));
    expect(() => new Webhook(secret).verify(body.replace('intent_1', 'intent_2'), headers)).toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
  });

  test('behavior: secrets are sealed bound to their endpoint and open again, also after a master key rotation', () => {
    const k1 = Buffer.alloc(32, 1);
    const k2 = Buffer.alloc(32, 2);
    const secret = generateSecret();
    const sealed = createSecretBox(k1).seal('svc_webhook_a', secret);
    expect(sealed.ciphertext).not.toContain(secret.slice(6, 20));
    expect(createSecretBox(k1).open('svc_webhook_a', sealed.ciphertext, sealed.keyVersion)).toBe(secret);
    expect(() => createSecretBox(k1).open('svc_webhook_b', sealed.ciphertext, sealed.keyVersion)).toThrow();
    expect(createSecretBox(k2, [k1]).open('svc_webhook_a', sealed.ciphertext, sealed.keyVersion)).toBe(secret);
    expect(() => createSecretBox(k2).open('svc_webhook_a', sealed.ciphertext, sealed.keyVersion)).toThrow();
  });
});

describe('deliveries', () => {
  test('behavior: the retry schedule is 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, then 8 h, and ends 24 h after the event', () => {
    const base = { baseMs: 5_000 };
    const created = 0;
    let now = 0;
    const waits: number[] = [];
    for (let attempts = 1; ; attempts++) {
      const next = nextAttemptAt(base, created, attempts, now);
      if (next === null) break;
      waits.push(next - now);
      now = next;
    }
    expect(waits.slice(0, 9)).toEqual([5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000]);
    expect(now).toBeLessThanOrEqual(24 * 3_600_000);
    expect(24 * 3_600_000 - now).toBeLessThan(28_800_000);
    expect(RETRY_WINDOW_STEPS * base.baseMs).toBe(24 * 3_600_000);
  });

  test('behavior: events per status, and message ids stable per (endpoint, intent version, event)', () => {
    expect(eventsFor({ status: 'executing' })).toEqual(['intent.updated']);
    expect(eventsFor({ status: 'completed' })).toEqual(['intent.updated', 'intent.completed']);
    expect(eventsFor({ status: 'failed' })).toEqual(['intent.updated', 'intent.failed']);
    expect(eventsFor({ status: 'cancelled' as never })).toEqual(['intent.updated', 'intent.cancelled']);
    const a = messageId('svc_webhook_a', { id: 'intent_1', version: 3 }, 'intent.updated');
    expect(a).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(messageId('svc_webhook_a', { id: 'intent_1', version: 3 }, 'intent.updated')).toBe(a);
    expect(messageId('svc_webhook_a', { id: 'intent_1', version: 4 }, 'intent.updated')).not.toBe(a);
    expect(messageId('svc_webhook_b', { id: 'intent_1', version: 3 }, 'intent.updated')).not.toBe(a);
  });

  test('behavior: the create schema takes http(s) URLs ≤ 2048 characters without credentials, and a non-empty subset of the events', () => {
    const ok = (b: unknown) => createWebhookSchema.safeParse(b).success;
    expect(ok({ url: 'https://example.com/h', events: ['intent.completed'] })).toBe(true);
    expect(ok({ url: 'http://127.0.0.1:9/h', events: ['intent.updated', 'intent.failed'], description: 'x' })).toBe(true);
    expect(ok({ url: 'ftp://example.com/h', events: ['intent.completed'] })).toBe(false);
    expect(ok({ url: 'https://user:pw@example.com/h', events: ['intent.completed'] })).toBe(false);
    expect(ok({ url: `https://example.com/${'a'.repeat(2040)}`, events: ['intent.completed'] })).toBe(false);
    expect(ok({ url: 'https://example.com/h', events: [] })).toBe(false);
    expect(ok({ url: 'https://example.com/h', events: ['intent.completed', 'intent.completed'] })).toBe(false);
    expect(ok({ url: 'https://example.com/h', events: ['wallet.created'] })).toBe(false);
    expect(ok({ url: 'https://example.com/h', events: ['intent.completed'], extra: 1 })).toBe(false);
  });
});

describe('sending: what a failed attempt tells', () => {
  test.each([
    [null, 'not delivered (no answer)'],
    [301, 'not delivered (3xx)'],
    [401, 'not delivered (4xx)'],
    [404, 'not delivered (4xx)'],
    [503, 'not delivered (5xx)'],
  ])('behavior: status %s is told as %s', (status, words) => {
    expect(publicOutcome(status)).toBe(words);
  });

  test('behavior: the result holds the status class only; the reason (the code, the resolved address) goes to explain, once per attempt', async () => {
    const server = createServer((_req, res) => res.writeHead(401).end('who are you'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const explained: { host: string; reason: string }[] = [];
    const egress = { allowLoopback: true, explain: (d: { host: string; reason: string }) => explained.push(d) };
    try {
      expect(await sendWebhook(`http://127.0.0.1:${port}/h`, '{}', {}, { egress, timeoutMs: 5_000 })).toEqual({
        ok: false,
        statusCode: 401,
        error: 'not delivered (4xx)',
      });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    // the same port, closed now: connection refused
    expect(await sendWebhook(`http://127.0.0.1:${port}/h`, '{}', {}, { egress, timeoutMs: 5_000 })).toEqual({
      ok: false,
      statusCode: null,
      error: 'not delivered (no answer)',
    });
    // a refused destination, named through DNS
    const lookup = async () => [{ address: '10.1.2.3', family: 4 }];
    expect(await sendWebhook('http://intranet.example/h', '{}', {}, { egress: { ...egress, lookup }, timeoutMs: 5_000 })).toEqual({
      ok: false,
      statusCode: null,
      error: 'not delivered (no answer)',
    });
    expect(explained).toEqual([
      { host: `127.0.0.1:${port}`, reason: 'the endpoint answered 401' },
      { host: `127.0.0.1:${port}`, reason: 'could not reach the endpoint: ECONNREFUSED' },
      { host: 'intranet.example', reason: expect.stringContaining('10.1.2.3') },
    ]);
  });
});
