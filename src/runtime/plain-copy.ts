/**
 * A deep copy as structuredClone makes it, several times faster for the JSON-shaped data that
 * documents and actor state hold (plain objects, arrays, primitives): anything else (a Date, a
 * Map, an instance of a class...) is handed to structuredClone itself. The data are trees, as in
 * MongoDB and on the Dapr wire, so shared parts come out as separate copies.
 */
export function copyOf<V>(value: V): V {
  if (typeof value !== "object" || value === null) {
    // structuredClone refuses functions and symbols with a DataCloneError; so does this.
    return typeof value === "function" || typeof value === "symbol" ? structuredClone(value) : value;
  }
  if (Array.isArray(value)) {
    return Object.getPrototypeOf(value) === Array.prototype
      ? (value.map(copyOf) as V)
      : structuredClone(value);
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  // A spread copies the members in one go and keeps the copy's shape as compact as the original's;
  // members added one by one past a few dozen turn an object into a slow dictionary. Then only the
  // members that are objects need copies of their own.
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(copy)) {
    const member = copy[key];
    if (typeof member !== "object" || member === null) {
      if (typeof member === "function" || typeof member === "symbol") structuredClone(member);
      continue;
    }
    // Assigning `__proto__` would set the copy's prototype instead of replacing the member.
    if (key === "__proto__") {
      Object.defineProperty(copy, key, {
        value: copyOf(member),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      copy[key] = copyOf(member);
    }
  }
  return copy as V;
}
