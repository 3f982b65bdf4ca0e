/**
 * A small closed-loop HTTP load generator, run as a child process so its CPU
 * is not the server's: `node -r ts-node/register bench/support/httpLoad.ts <json>`.
 * Sends `concurrency` keep-alive requests in a loop for `seconds`, prints {requests, errors, seconds}.
 */
import { Agent, request } from 'node:http';

interface LoadSpec {
  url: string;
  /** Default POST; a GET sends no body. */
  method?: 'GET' | 'POST';
  body: string;
  headers: Record<string, string>;
  concurrency: number;
  seconds: number;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]!) as LoadSpec;
  const u = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const deadline = Date.now() + spec.seconds * 1000;
  let requests = 0;
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname + u.search,
          method: spec.method ?? 'POST',
          agent,
          headers: spec.method === 'GET' ? spec.headers : { ...spec.headers, 'Content-Length': Buffer.byteLength(spec.body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) requests++;
            else errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(spec.method === 'GET' ? undefined : spec.body);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  process.stdout.write(JSON.stringify({ requests, errors, seconds: (Date.now() - started) / 1000 }));
  agent.destroy();
}

void main();
