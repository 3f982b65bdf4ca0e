/**
 * A CPU profile of one measured window only (not start-up, compilation or the
 * bench's setup), written where BENCH_CPU_PROF names: open it in Chrome
 * DevTools or read its self times. A name ending in `.heapprofile` takes a
 * sampling heap profile instead (where the window allocates).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/** Starts profiling when `path` is set; the returned stop writes the profile (a no-op otherwise). */
export async function profileWindow(path: string | undefined): Promise<() => Promise<void>> {
  if (!path) return async () => undefined;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));
  if (path.endsWith('.heapprofile')) {
    await post('HeapProfiler.enable');
    // every allocation sampled, including those collected before the window ends
    await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    return async () => {
      const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
    };
  }
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(path, JSON.stringify(profile));
    session.disconnect();
  };
}
