/**
 * A value its holder only looks at, all the way down: what a store or an actor runtime hands out
 * without copying (a peek) is the value it holds, which nobody may change.
 */
export type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
