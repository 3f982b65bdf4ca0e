/** A promise with its resolve/reject exposed, to hold a handler mid-flight in tests. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback and I/O callback run. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
