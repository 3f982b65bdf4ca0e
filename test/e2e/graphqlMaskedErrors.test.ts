import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startService, type RunningService } from '../../src/service';
import { ADMIN_TOKEN, LEAK, TEST_MASTER_KEY, seedCorruptAccountKey, type TestServer } from '../helpers/server';

/**
 * A GraphQL error masked as INTERNAL_ERROR carries a requestId, and that id is
 * in a log line with the real error, on the fast path and on yoga's path.
 * Streamed bodies are bounded on yoga's path too.
 */
let service: RunningService;
const lines: any[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  const shared = process.env.SANDBOX_MANIFEST ? { SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST } : {};
  service = await startService(loadConfig({ PORT: '0', ADMIN_TOKEN, KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY, ...shared }), createLogger('error', sink));
});
afterAll(async () => {
  await service?.stop();
});

test('error: a masked GraphQL 500 is logged with the requestId the client sees (POST fast path, GET through yoga, admission)', async () => {
  const pro = await newKey();
  const headers = { Authorization: `Bearer ${pro}`, Accept: 'application/json' };
  // A resolver meets an unexpected error: the chain port throws a TypeError for this test.
  const { chains, caches } = service.deps;
  const rates = chains.rates;
  chains.rates = async () => {
    throw new TypeError('boom: unexpected');
  };
  caches.rates.clear();
  try {
    const post = await fetch(service.url + '/graphql', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ yields { best { apy } } }' }),
    });
    const get = await fetch(service.url + '/graphql?query=' + encodeURIComponent('{ yields { best { apy } } }'), { headers });
    // And an error before any resolver (a corrupt account record makes admission throw).
    const corrupt = await fetch(service.url + '/graphql?query=' + encodeURIComponent('{ __typename }'), {
      headers: { Authorization: `Bearer ${await seedCorruptAccountKey({ service } as TestServer)}`, Accept: 'application/json' },
    });
    for (const res of [post, get, corrupt]) {
      const text = await res.text();
      expect(text).not.toMatch(LEAK);
      expect(text).not.toMatch(/boom/);
      const err = JSON.parse(text).errors[0];
      expect(err.extensions.code).toBe('INTERNAL_ERROR');
      const requestId = err.extensions.details.requestId;
      expect(requestId).toMatch(/^req/);
      const logged = lines.find((l) => l.requestId === requestId && l.level >= 50);
      expect(logged?.err?.message).toMatch(/boom|Cannot read|undefined/);
    }
  } finally {
    chains.rates = rates;
  }
});

async function newKey(): Promise<string> {
  const a = await fetch(service.url + '/admin/accounts', {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: '{"plan":"pro"}',
  });
  return ((await a.json()).apiKey as { key: string }).key;
}

test('error: a chunked POST body over the limit to yoga (SSE) is 413, not read to the end', async () => {
  const key = await newKey();
  const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent++ < 40)
        c.enqueue(chunk); // 2.5 MiB, no Content-Length
      else c.close();
    },
  });
  const res = await fetch(service.url + '/graphql', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body,
    duplex: 'half',
  } as RequestInit);
  expect(res.status).toBe(413);
  expect((await res.json()).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
});
