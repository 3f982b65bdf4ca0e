/**
 * Writes test/setup/fileDurations.json, the seconds each test file took, for the sequencer of a checkout
 * without jest's cached timings (test/setup/slowestFirst.mjs). From a full run's report:
 *   npx jest --json --outputFile=/tmp/jest.json && node test/setup/fileDurations.mjs /tmp/jest.json
 * Files under two seconds are left out (their size orders them well enough).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import process from 'node:process';

const root = fileURLToPath(new URL('../..', import.meta.url));
const report = JSON.parse(readFileSync(process.argv[2] ?? '/tmp/jest.json', 'utf8'));
const seconds = report.testResults
  .map((r) => [relative(root, r.name).split('\\').join('/'), Math.round((r.endTime - r.startTime) / 100) / 10])
  .filter(([, s]) => s >= 2)
  .sort((a, b) => b[1] - a[1]);
writeFileSync(new URL('./fileDurations.json', import.meta.url), `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
process.stdout.write(`fileDurations.json: ${seconds.length} files\n`);
