import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { publicOutcome, resolveAllowed, type EgressPolicy } from './egress';

/** What one POST of a delivery came to. */
export type SendResult = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string };

/** Most of an endpoint's answer read (and thrown away) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` to `url` with `headers`, connecting only to the address the
 * egress check allowed (the socket's lookup is pinned to it, TLS still
 * verifies the URL's host name). 2xx is delivered; anything else, a redirect
 * included (never followed), a timeout or a connection error is a failure.
 * The failure's `error` is what the delivery log shows (publicOutcome: the
 * status class only); the full reason goes to `egress.explain` (the server
 * log). `signal` aborts it (a stopping worker).
 */
export async function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { egress: EgressPolicy; timeoutMs: number; signal?: AbortSignal },
): Promise<SendResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, statusCode: null, error: publicOutcome(null) };
  }
  // The full reason is told once, to the server log; the result carries only what the delivery log may show.
  const failed = (statusCode: number | null, reason: string): SendResult & { reason: string } => ({
    ok: false,
    statusCode,
    error: publicOutcome(statusCode),
    reason,
  });
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolveAllowed(target, options.egress);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    options.egress.explain?.({ host: target.host, reason }, 'webhook attempt not delivered');
    return { ok: false, statusCode: null, error: publicOutcome(null) };
  }
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: pinned.address, family: pinned.family }]);
    else cb(null, pinned.address, pinned.family);
  };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: SendResult & { reason?: string }) => {
      if (settled) return;
      settled = true;
      if (r.reason !== undefined) options.egress.explain?.({ host: target.host, reason: r.reason }, 'webhook attempt not delivered');
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(r.ok ? r : { ok: false, statusCode: r.statusCode, error: r.error });
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'wallet-intent-service-webhooks/1',
          ...headers,
        },
        lookup,
        agent: false,
      },
      (res) => {
        const statusCode = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const finish = () => done(statusCode >= 200 && statusCode < 300 ? { ok: true, statusCode } : failed(statusCode, `the endpoint answered ${statusCode}`));
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done(failed(null, `no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const onAbort = () => {
      req.destroy();
      // a stopping worker, not the endpoint: nothing to explain (the attempt is given back)
      done({ ok: false, statusCode: null, error: publicOutcome(null) });
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    req.on('error', (e) => done(failed(null, `could not reach the endpoint: ${(e as NodeJS.ErrnoException).code ?? e.message}`)));
    req.end(body);
  });
}
