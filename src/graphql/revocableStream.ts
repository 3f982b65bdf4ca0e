import type { ExecutionResult } from 'graphql';
import type { KeyRevocations } from '../app/accounts/keyRevocations';
import { keyCheckError } from '../app/accounts/authenticate';
import { toGraphQLError } from './errors';

/**
 * A subscription's result stream that ends when the key it was opened with is
 * revoked: the source is released, and the subscriber gets one last result
 * carrying an UNAUTHORIZED error, then the end of the stream.
 */
export function endOnRevocation(
  source: AsyncIterableIterator<ExecutionResult>,
  revocations: KeyRevocations,
  keyId: string,
): AsyncIterableIterator<ExecutionResult> {
  let onRevoked!: () => void;
  const revoked = new Promise<'revoked'>((resolve) => (onRevoked = () => resolve('revoked')));
  const unwatch = revocations.watch(keyId, onRevoked);
  let done = false;

  const finish = async (): Promise<IteratorResult<ExecutionResult>> => {
    if (!done) {
      done = true;
      unwatch();
      await source.return?.();
    }
    return { value: undefined, done: true };
  };

  const it: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      if (done) return { value: undefined, done: true };
      const r = await Promise.race([source.next(), revoked]);
      if (r === 'revoked') {
        await finish();
        return { value: { errors: [toGraphQLError(keyCheckError('revoked'))] }, done: false };
      }
      if (r.done) await finish();
      return r;
    },
    return: finish,
    async throw(e) {
      await finish();
      throw e;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
