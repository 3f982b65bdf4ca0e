/**
 * Jest testSequencer: the slowest test files start first, so both workers stay busy until the end instead of one
 * finishing a long file alone. Jest's own sequencer does this only with timings in its cache (earlier runs in the
 * same checkout); a fresh clone has none and falls back to file size, which puts long, short files such as
 * intentsInFlight (~100 s of waits in 210 lines) late, where they alone set the run's tail. Here a file's time
 * is jest's cached one, else the one in fileDurations.json (seconds of a full run; refresh it with
 * test/setup/fileDurations.mjs), else a guess from its size.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { URL } from 'node:url';
import TestSequencer from '@jest/test-sequencer';

const Sequencer = TestSequencer.default ?? TestSequencer;

/**
 * Files that assert a latency under load (`/healthz` within 100 ms) or count contention (nonce collisions): they
 * go right after the slowest file, intentsInFlight, which mostly waits out a stalled chain, so the other worker
 * runs them beside a quiet neighbour rather than beside files that start and deploy devnets of their own.
 */
const TIMING_BOUND = ['test/e2e/graphqlCostBomb.test.ts', 'test/e2e/backtestLoad.test.ts', 'test/integration/engine/scaleOut.memory.test.ts'];
const recorded = JSON.parse(readFileSync(new URL('./fileDurations.json', import.meta.url), 'utf8'));

export default class SlowestFirst extends Sequencer {
  sort(tests) {
    const expected = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached;
      const known = recorded[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
      // about a second per 10 kB of test file when nothing was measured
      return known != null ? known * 1000 : (test.context.hasteFS.getSize(test.path) ?? 0) / 10;
    };
    const ms = new Map(tests.map((test) => [test, expected(test)]));
    const sorted = [...tests].sort((a, b) => ms.get(b) - ms.get(a));
    const rel = (test) => relative(test.context.config.rootDir, test.path).split('\\').join('/');
    const bound = sorted.filter((t) => TIMING_BOUND.includes(rel(t)));
    const rest = sorted.filter((t) => !TIMING_BOUND.includes(rel(t)));
    return rest.length === 0 ? bound : [rest[0], ...bound, ...rest.slice(1)];
  }
}
