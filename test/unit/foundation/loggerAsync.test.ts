import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { asyncDestination, createLogger, fixedFieldsWriter, flushLogger } from '../../../src/logger';

const KEY = `svc_sk_${'c0ffee'.repeat(10)}abcd`;

/** A pino destination that keeps every line in memory. */
function memoryStream() {
  const lines: string[] = [];
  return { lines, write: (s: string) => void lines.push(s) };
}

describe('asynchronous destination', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'logger-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('behavior: 2,000 lines written without blocking are all in the file after flushLogger, in order, redacted', async () => {
    const file = join(dir, 'out.log');
    const logger = createLogger('info', asyncDestination(file));
    for (let i = 0; i < 2_000; i++) logger.info({ i, apiKey: KEY }, 'line');
    await flushLogger(logger);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
    expect(lines.every((l) => l.apiKey === '[redacted]')).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY.slice(7));
  });

  test('behavior: lines of many event-loop turns, handed over a turn at a time, are all in the file after flushLogger, in order', async () => {
    const file = join(dir, 'turns.log');
    const logger = createLogger('info', asyncDestination(file));
    let i = 0;
    for (let turn = 0; turn < 50; turn++) {
      for (let k = 0; k < 1 + (turn % 7); k++) logger.info({ i: i++ }, 'line');
      await new Promise((r) => setImmediate(r));
    }
    logger.info({ i: i++ }, 'last, still pending');
    await flushLogger(logger);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: i }, (_, n) => n));
  });

  test('behavior: lines logged in the turn the process exits in are written (no flushLogger)', () => {
    const file = join(dir, 'exit.log');
    const script = `const { createLogger, asyncDestination } = require(${JSON.stringify(join(__dirname, '../../../src/logger'))});
const logger = createLogger('info', asyncDestination(${JSON.stringify(file)}));
setTimeout(() => { for (let i = 0; i < 500; i++) logger.info({ i }, 'line'); process.exit(0); }, 50);`;
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(0);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 500 }, (_, n) => n));
  });

  test('behavior: flushLogger resolves at once for a destination without a buffer', async () => {
    const out = memoryStream();
    const logger = createLogger('info', out);
    logger.info('x');
    await flushLogger(logger);
    expect(out.lines).toHaveLength(1);
  });
});

describe('fixedFieldsWriter', () => {
  test("behavior: writes the same JSON as the logger would (level, service, fields, msg), following the logger's level at each call", () => {
    const out = memoryStream();
    const logger = createLogger('info', out);
    const line = fixedFieldsWriter(logger, ['requestId', 'status', 'accountId'] as const);
    line('info', { requestId: 'req_1', status: 200, accountId: undefined }, 'request');
    logger.info({ requestId: 'req_1', status: 200, accountId: undefined }, 'request');
    const [a, b] = out.lines.map((l) => ({ ...JSON.parse(l), time: 0 }));
    expect(a).toEqual(b);
    expect(a).toEqual({ level: 30, time: 0, service: 'wallet-intent-service', requestId: 'req_1', status: 200, msg: 'request' });
    logger.level = 'warn';
    line('info', { requestId: 'req_2', status: 200, accountId: 'a' }, 'request');
    expect(out.lines).toHaveLength(2);
    logger.level = 'silent';
    line('warn', { requestId: 'req_3', status: 500, accountId: 'a' }, 'request');
    expect(out.lines).toHaveLength(2);
  });

  test('security: a field that a redaction path names cannot be written unredacted', () => {
    const logger = createLogger('info', memoryStream());
    expect(() => fixedFieldsWriter(logger, ['requestId', 'apiKey'] as const)).toThrow(/apiKey/);
    expect(() => fixedFieldsWriter(logger, ['req'] as const)).toThrow(/req/);
    expect(() => fixedFieldsWriter(logger, ['headers'] as const)).toThrow(/headers/);
  });
});
