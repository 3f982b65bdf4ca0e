import { EngineStopped, untilStopped } from '../../../src/engine/abort';

/** A read outside the actor's chain port (planning's cached rates) stops with the intent like a chain call. */
describe('untilStopped', () => {
  test('behavior: answers what the read answers, its error included', async () => {
    const signal = new AbortController().signal;
    await expect(untilStopped(Promise.resolve(7), signal)).resolves.toBe(7);
    await expect(untilStopped(Promise.reject(new Error('node down')), signal)).rejects.toThrow('node down');
  });

  test('error: the signal aborting while the read is in flight → EngineStopped at once, the read left to settle', async () => {
    const stop = new AbortController();
    let finish: (v: number) => void = () => undefined;
    const read = new Promise<number>((resolve) => (finish = resolve));
    const waiting = untilStopped(read, stop.signal);
    stop.abort();
    await expect(waiting).rejects.toBeInstanceOf(EngineStopped);
    finish(1);
  });

  test('error: a signal aborted before → EngineStopped, and a failing read is not an unhandled rejection', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(untilStopped(Promise.reject(new Error('late')), stop.signal)).rejects.toBeInstanceOf(EngineStopped);
  });
});
