/** Back-off lives below planning and the executor alike (src/engine/retry.ts); the executor's name for it stays. */
export { DEFAULT_RETRY, backoffMs, isTransient, withRetry, type RetryPolicy } from '../retry';
