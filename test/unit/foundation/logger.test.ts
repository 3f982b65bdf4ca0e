import { createLogger } from '../../../src/logger';

/** A pino destination that keeps every line in memory. */
function memoryStream() {
  const lines: string[] = [];
  return { lines, write: (s: string) => void lines.push(s) };
}

const KEY = `svc_sk_${'c0ffee'.repeat(10)}abcd`;

describe('logger redaction', () => {
  test('behavior: Authorization headers, API keys and private keys are written as [redacted]', () => {
    const out = memoryStream();
    const logger = createLogger('info', out);
    logger.info(
      {
        req: { method: 'GET', headers: { authorization: `Bearer ${KEY}`, 'x-payment-proof': 'proof-blob', accept: 'application/json' } },
        apiKey: KEY,
        wallet: { privateKey: '0xdeadbeef', address: '0xabc' },
        privateKey: '0xfeedface',
      },
      'request',
    );
    expect(out.lines).toHaveLength(1);
    const line = out.lines[0]!;
    const entry = JSON.parse(line);
    expect(entry.req.headers.authorization).toBe('[redacted]');
    expect(entry.req.headers['x-payment-proof']).toBe('[redacted]');
    expect(entry.req.headers.accept).toBe('application/json');
    expect(entry.apiKey).toBe('[redacted]');
    expect(entry.wallet).toEqual({ privateKey: '[redacted]', address: '0xabc' });
    expect(entry.privateKey).toBe('[redacted]');
    expect(line).not.toContain(KEY.slice(7));
    expect(line).not.toContain('deadbeef');
    expect(line).not.toContain('feedface');
    expect(line).not.toContain('proof-blob');
  });

  test('behavior: a bare authorization field and a nested apiKey object are redacted', () => {
    const out = memoryStream();
    createLogger('info', out).warn({ authorization: `Bearer ${KEY}`, headers: { authorization: KEY }, issued: { apiKey: KEY } }, 'keys');
    const entry = JSON.parse(out.lines[0]!);
    expect(entry).toMatchObject({ authorization: '[redacted]', headers: { authorization: '[redacted]' }, issued: { apiKey: '[redacted]' } });
    expect(out.lines[0]).not.toContain(KEY.slice(7));
  });

  test('behavior: level silent writes nothing', () => {
    const out = memoryStream();
    createLogger('silent', out).error({ apiKey: KEY }, 'nothing');
    expect(out.lines).toEqual([]);
  });
});
