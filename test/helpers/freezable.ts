/**
 * A view of `target` (and of every object reachable through its properties)
 * that can be frozen: from then on every call that returns a promise, and
 * every promise already in flight through the view, never settles. It stands
 * for a process that stopped abruptly (SIGKILL, a host lost): nothing it had
 * started reaches the store or the chain any more, and it never learns how
 * what it sent ended. Synchronous calls pass through.
 */
export function freezable<T extends object>(target: T): { view: T; freeze(): void; readonly frozen: boolean } {
  let frozen = false;
  const never = new Promise<never>(() => undefined);
  const views = new WeakMap<object, object>();

  const settle = <V>(p: PromiseLike<V>): Promise<V> =>
    Promise.resolve(p).then(
      (v) => (frozen ? never : v),
      (e: unknown) => (frozen ? never : Promise.reject(e)),
    );

  const wrap = <O extends object>(obj: O): O => {
    const known = views.get(obj);
    if (known) return known as O;
    const proxy = new Proxy(obj, {
      get(t, key, receiver) {
        const value: unknown = Reflect.get(t, key, receiver);
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            if (frozen) return never;
            const out: unknown = (value as (...a: unknown[]) => unknown).apply(t, args);
            return out !== null && typeof out === 'object' && typeof (out as PromiseLike<unknown>).then === 'function'
              ? settle(out as PromiseLike<unknown>)
              : out;
          };
        }
        return value !== null && typeof value === 'object' && !Array.isArray(value) ? wrap(value) : value;
      },
    });
    views.set(obj, proxy);
    return proxy;
  };

  return {
    view: wrap(target),
    freeze() {
      frozen = true;
    },
    get frozen() {
      return frozen;
    },
  };
}
