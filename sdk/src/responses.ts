/**
 * The HTTP answer behind a value the SDK's helpers returned (headers such as
 * `Idempotent-Replayed`, `X-Credits-Remaining`, `PAYMENT-RESPONSE`), kept
 * aside in a WeakMap so the value itself stays the service's JSON.
 */
const answers = new WeakMap<object, Response>();

/** Remembers `response` as the answer that produced `value`; returns `value`. */
export function remember<T>(value: T, response: Response): T {
  if (typeof value === 'object' && value !== null) answers.set(value, response);
  return value;
}

/**
 * The HTTP answer a helper's result came from (undefined for values the SDK
 * did not return).
 *
 * ```ts
 * const intent = await client.intents.create(body, { idempotencyKey: 'order-42' });
 * responseOf(intent)?.headers.get('Idempotent-Replayed'); // 'true' on a replay
 * ```
 */
export function responseOf(value: object): Response | undefined {
  return answers.get(value);
}

/** True when the value is a replay of an earlier request with the same Idempotency-Key (`Idempotent-Replayed: true`). */
export function wasReplayed(value: object): boolean {
  return answers.get(value)?.headers.get('idempotent-replayed') === 'true';
}
