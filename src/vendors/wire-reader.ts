/**
 * Reading a vendor's JSON without trusting it: each accessor either returns the typed value or
 * throws `MalformedResponse`, which the client reports as a transient MALFORMED_RESPONSE.
 */
export class MalformedResponse extends Error {
  constructor(detail: string) {
    super(`malformed vendor response: ${detail}`);
    this.name = "MalformedResponse";
  }
}

export type JsonObject = Record<string, unknown>;

/** Where a value sits in a vendor's object: its key, or the keys of the objects leading down to it. */
export type WirePath = string | readonly string[];

export function object(value: unknown, what: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MalformedResponse(`${what} is not an object`);
  }
  return value as JsonObject;
}

export function objectAt(from: JsonObject, path: WirePath): JsonObject {
  const [parent, key] = step(from, path);
  return object(parent[key], key);
}

/** The object that holds the last key of `path`, and that key; each object on the way must be one. */
function step(from: JsonObject, path: WirePath): [JsonObject, string] {
  if (typeof path === "string") return [from, path];
  let parent = from;
  for (const key of path.slice(0, -1)) parent = objectAt(parent, key);
  return [parent, path[path.length - 1]!];
}

/**
 * The objects listed under `key` in a response body, such as search results or a change feed;
 * `what` and `each` name the body and one entry in the malformed-response message.
 */
export function objectsIn(body: unknown, what: string, key: string, each: string): JsonObject[] {
  return listAt(object(body, what), key).map((item) => object(item, each));
}

export function listAt(from: JsonObject, path: WirePath): unknown[] {
  const [parent, key] = step(from, path);
  const value = parent[key];
  if (!Array.isArray(value)) throw new MalformedResponse(`${key} is not a list`);
  return value;
}

export function textAt(from: JsonObject, path: WirePath): string {
  const [parent, key] = step(from, path);
  const value = parent[key];
  if (typeof value !== "string") throw new MalformedResponse(`${key} is not a string`);
  return value;
}

/** A string, or null when the field is null or absent. */
export function optionalTextAt(from: JsonObject, path: WirePath): string | null {
  const [parent, key] = step(from, path);
  const value = parent[key];
  if (value === null || value === undefined) return null;
  if (typeof value !== "string") throw new MalformedResponse(`${key} is not a string`);
  return value;
}

export function numberAt(from: JsonObject, path: WirePath): number {
  const [parent, key] = step(from, path);
  const value = parent[key];
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new MalformedResponse(`${key} is not a number`);
  return value;
}

export function optionalNumberAt(from: JsonObject, path: WirePath): number | null {
  const [parent, key] = step(from, path);
  const value = parent[key];
  if (value === null || value === undefined) return null;
  return numberAt(parent, key);
}

export function booleanAt(from: JsonObject, path: WirePath): boolean {
  const [parent, key] = step(from, path);
  const value = parent[key];
  if (typeof value !== "boolean") throw new MalformedResponse(`${key} is not a boolean`);
  return value;
}

export function textsAt(from: JsonObject, path: WirePath): string[] {
  const [parent, key] = step(from, path);
  return listAt(parent, key).map((item, index) => {
    if (typeof item !== "string") throw new MalformedResponse(`${key}[${index}] is not a string`);
    return item;
  });
}

/** Translates a vendor's word through `meaning`; a word it does not list is malformed. */
export function translated<T>(word: string, meaning: Readonly<Record<string, T>>, what: string): T {
  if (!Object.hasOwn(meaning, word)) throw new MalformedResponse(`${what} "${word}" is not known`);
  return meaning[word]!;
}

/**
 * The vendor's own error code at `path` in an error body, or undefined. Unlike the accessors above
 * it never throws: the body is read only to classify a failure that has already happened, so a body
 * in another shape just means the vendor gave no code.
 */
export function errorCodeAt(body: unknown, ...path: string[]): string | undefined {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as JsonObject)[key];
  }
  return typeof value === "string" ? value : undefined;
}
