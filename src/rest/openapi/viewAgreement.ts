/**
 * Compile-time agreement of the OpenAPI schemas with the view types the
 * use-cases return: each file of schemas lists `Agree<z.output<typeof schema>, View>`
 * pairs typed as `true`, so a drift between the two fails the typecheck.
 */

/**
 * Literal unions widened to their primitive, recursively (the schemas may be
 * tighter than the views' `string`); every key made required, so an optional
 * field present on one side only is a disagreement too.
 */
type Loose<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends null | undefined
        ? T
        : T extends readonly (infer U)[]
          ? Loose<U>[]
          : T extends object
            ? { [K in keyof T]-?: Loose<T[K]> }
            : T;

/** True when each type is assignable to the other, once widened. */
export type Agree<A, B> = [Loose<A>] extends [Loose<B>] ? ([Loose<B>] extends [Loose<A>] ? true : false) : false;
