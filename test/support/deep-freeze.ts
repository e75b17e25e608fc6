/**
 * Freezes the value and everything in it, for tests of decisions that actors take over their
 * stored state itself (ActorState.peek): a change to a frozen input throws (ES modules run in
 * strict mode).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
