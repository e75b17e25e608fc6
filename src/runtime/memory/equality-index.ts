import type { Doc, Filter } from "../document-store.js";

/** A stored document and where it stands in insertion order. */
export interface Stored<T> {
  doc: T;
  position: number;
}

/** An indexable value: what MongoDB compares by equality without looking inside. */
type Key = string | number | boolean | null;

/** Documents sharing every key of an index: one alone, or several. */
type Bucket<T> = Stored<T> | Set<Stored<T>>;

interface Branch<T> {
  /** Documents anywhere under this branch. */
  count: number;
  children: Map<Key, Branch<T> | Bucket<T>>;
}

/** Candidates an index offers for a filter: `size` is known before they are gathered. */
export interface IndexLookup<T> {
  size: number;
  /**
   * True when the filter is nothing but the equality conditions the index looked up: then every
   * keyed candidate matches as it is, and only the documents kept aside need the filter's test.
   */
  covers: boolean;
  gather(): { keyed: Stored<T>[]; unkeyed: Stored<T>[] };
}

/**
 * Finds the documents that can match equality conditions on the leading fields of a declared
 * index (`{tenant, caseUrn}` for an index on tenant, caseUrn, at), the way MongoDB walks an index
 * by a prefix of its keys, so that such queries cost what they match rather than what the
 * collection holds. It only narrows: the store still tests the whole filter on what it returns.
 *
 * Keys are scalar values; a missing field counts as null, as `{field: null}` matches it. A
 * document whose indexed field holds an array, an object or a Date (or runs through an array) is
 * kept aside and offered for every lookup, since equality on it means more than one key.
 */
export class EqualityIndex<T extends Doc> {
  private readonly segments: string[][];
  private readonly root: Branch<T> = { count: 0, children: new Map() };
  private readonly unkeyed = new Set<Stored<T>>();

  constructor(readonly paths: readonly string[]) {
    this.segments = paths.map((path) => path.split("."));
  }

  add(stored: Stored<T>): void {
    const keys = this.keysOf(stored.doc);
    if (!keys) {
      this.unkeyed.add(stored);
      return;
    }
    let branch = this.root;
    branch.count++;
    const last = keys.length - 1;
    for (let i = 0; i < last; i++) {
      let child = branch.children.get(keys[i]!) as Branch<T> | undefined;
      if (!child) {
        child = { count: 0, children: new Map() };
        branch.children.set(keys[i]!, child);
      }
      child.count++;
      branch = child;
    }
    const bucket = branch.children.get(keys[last]!) as Bucket<T> | undefined;
    if (!bucket) branch.children.set(keys[last]!, stored);
    else if (bucket instanceof Set) bucket.add(stored);
    else branch.children.set(keys[last]!, new Set([bucket, stored]));
  }

  /** Takes out a document added before; its document is the one it was added with. */
  remove(stored: Stored<T>): void {
    const keys = this.keysOf(stored.doc);
    if (!keys) {
      this.unkeyed.delete(stored);
      return;
    }
    const trail: Branch<T>[] = [this.root];
    for (let i = 0; i < keys.length - 1; i++) {
      const child = trail[i]!.children.get(keys[i]!) as Branch<T> | undefined;
      if (!child) return;
      trail.push(child);
    }
    const parent = trail[trail.length - 1]!;
    const key = keys[keys.length - 1]!;
    const bucket = parent.children.get(key) as Bucket<T> | undefined;
    if (bucket instanceof Set) {
      if (!bucket.delete(stored)) return;
      if (bucket.size === 1) parent.children.set(key, bucket.values().next().value!);
    } else if (bucket === stored) {
      parent.children.delete(key);
    } else {
      return;
    }
    for (let i = trail.length - 1; i >= 0; i--) {
      const branch = trail[i]!;
      branch.count--;
      if (i > 0 && branch.count === 0) trail[i - 1]!.children.delete(keys[i - 1]!);
    }
  }

  /** Undefined when the filter sets no leading field of the index to a scalar. */
  lookup(filter: Filter): IndexLookup<T> | undefined {
    const keys: Key[] = [];
    for (const path of this.paths) {
      const key = equalityKey(filter[path]);
      if (key === undefined) break;
      keys.push(key);
    }
    if (keys.length === 0) return undefined;
    let node: Branch<T> | Bucket<T> | undefined = this.root;
    for (let i = 0; i < keys.length && node; i++) {
      node = (node as Branch<T>).children.get(keys[i]!);
    }
    const depth = keys.length;
    const full = depth === this.paths.length;
    const size =
      (node === undefined ? 0 : full ? bucketSize(node as Bucket<T>) : (node as Branch<T>).count) +
      this.unkeyed.size;
    const unkeyed = this.unkeyed;
    const levelsBelow = this.paths.length - depth;
    return {
      size,
      covers: Object.keys(filter).length === depth,
      gather() {
        const keyed: Stored<T>[] = [];
        if (node !== undefined) collect(node, levelsBelow, keyed);
        return { keyed, unkeyed: [...unkeyed] };
      },
    };
  }

  /** The document's key per path, or undefined when one of them is not a scalar. */
  private keysOf(doc: T): Key[] | undefined {
    const keys: Key[] = [];
    for (const segments of this.segments) {
      let value: unknown = doc;
      for (const segment of segments) {
        if (Array.isArray(value)) return undefined;
        value =
          value !== null && typeof value === "object"
            ? (value as Record<string, unknown>)[segment]
            : undefined;
      }
      if (value === undefined || value === null) keys.push(null);
      else if (isScalar(value)) keys.push(value);
      else return undefined;
    }
    return keys;
  }
}

function isScalar(value: unknown): value is string | number | boolean {
  const type = typeof value;
  return type === "string" || type === "number" || type === "boolean";
}

/** The key an equality condition names (`"x"`, `null`, `{ $eq: "x" }`), else undefined. */
function equalityKey(condition: unknown): Key | undefined {
  if (condition === null || isScalar(condition)) return condition;
  if (
    typeof condition !== "object" ||
    Array.isArray(condition) ||
    Object.getPrototypeOf(condition) !== Object.prototype
  ) {
    return undefined;
  }
  const operators = Object.keys(condition);
  if (operators.length !== 1 || operators[0] !== "$eq") return undefined;
  const value = (condition as { $eq: unknown }).$eq;
  return value === null || isScalar(value) ? value : undefined;
}

function bucketSize<T>(bucket: Bucket<T>): number {
  return bucket instanceof Set ? bucket.size : 1;
}

/** Everything under `node`, which has `levels` more levels of branches above its buckets. */
function collect<T>(node: Branch<T> | Bucket<T>, levels: number, into: Stored<T>[]): void {
  if (levels === 0) {
    if (node instanceof Set) for (const stored of node) into.push(stored);
    else into.push(node as Stored<T>);
    return;
  }
  for (const child of (node as Branch<T>).children.values()) collect(child, levels - 1, into);
}
