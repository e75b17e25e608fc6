/**
 * A deep copy as structuredClone makes it, several times faster for the JSON-shaped data that
 * documents and actor state hold (plain objects, arrays, primitives): anything else (a Date, a
 * Map, an instance of a class...) is handed to structuredClone itself. The data are trees, as in
 * MongoDB and on the Dapr wire, so shared parts come out as separate copies.
 */
export function copyOf<V>(value: V): V {
  return copy(value, undefined);
}

/**
 * As copyOf, except that the objects in `owned` are taken as they are, wherever they sit: for a
 * value made partly of copies nobody else holds (what an actor turn read), which need no second one.
 */
export function copyKeeping<V>(value: V, owned: ReadonlySet<object>): V {
  return copy(value, owned.size === 0 ? undefined : owned);
}

function copy<V>(value: V, owned: ReadonlySet<object> | undefined): V {
  if (typeof value !== "object" || value === null) {
    // structuredClone refuses functions and symbols with a DataCloneError; so does this.
    return typeof value === "function" || typeof value === "symbol" ? structuredClone(value) : value;
  }
  if (owned?.has(value)) return value;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return structuredClone(value);
    const items = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = copy(value[i], owned);
    return items as V;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  // A spread copies the members in one go and keeps the copy's shape as compact as the original's;
  // members added one by one past a few dozen turn an object into a slow dictionary. Then only the
  // members that are objects need copies of their own. for...in walks the copy's members from the
  // shape's cached key list; Object.keys built a new array of them for every object copied (a
  // third of a wallet card's record copy). It also walks what the prototype lends, which is not copied.
  const result: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in result) {
    const member = result[key];
    if (typeof member !== "object" || member === null) {
      if ((typeof member === "function" || typeof member === "symbol") && Object.hasOwn(result, key)) {
        structuredClone(member);
      }
      continue;
    }
    if (!Object.hasOwn(result, key)) continue;
    // Assigning `__proto__` would set the copy's prototype instead of replacing the member.
    if (key === "__proto__") {
      Object.defineProperty(result, key, {
        value: copy(member, owned),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      result[key] = copy(member, owned);
    }
  }
  return result as V;
}
