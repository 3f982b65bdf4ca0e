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
    return [...tests].sort((a, b) => ms.get(b) - ms.get(a));
  }
}
