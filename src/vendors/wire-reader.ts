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

export function object(value: unknown, what: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MalformedResponse(`${what} is not an object`);
  }
  return value as JsonObject;
}

export function objectAt(from: JsonObject, key: string): JsonObject {
  return object(from[key], key);
}

/**
 * The objects listed under `key` in a response body, such as search results or a change feed;
 * `what` and `each` name the body and one entry in the malformed-response message.
 */
export function objectsIn(body: unknown, what: string, key: string, each: string): JsonObject[] {
  return listAt(object(body, what), key).map((item) => object(item, each));
}

export function listAt(from: JsonObject, key: string): unknown[] {
  const value = from[key];
  if (!Array.isArray(value)) throw new MalformedResponse(`${key} is not a list`);
  return value;
}

export function textAt(from: JsonObject, key: string): string {
  const value = from[key];
  if (typeof value !== "string") throw new MalformedResponse(`${key} is not a string`);
  return value;
}

/** A string, or null when the field is null or absent. */
export function optionalTextAt(from: JsonObject, key: string): string | null {
  const value = from[key];
  if (value === null || value === undefined) return null;
  if (typeof value !== "string") throw new MalformedResponse(`${key} is not a string`);
  return value;
}

export function numberAt(from: JsonObject, key: string): number {
  const value = from[key];
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new MalformedResponse(`${key} is not a number`);
  return value;
}

export function optionalNumberAt(from: JsonObject, key: string): number | null {
  const value = from[key];
  if (value === null || value === undefined) return null;
  return numberAt(from, key);
}

export function booleanAt(from: JsonObject, key: string): boolean {
  const value = from[key];
  if (typeof value !== "boolean") throw new MalformedResponse(`${key} is not a boolean`);
  return value;
}

export function textsAt(from: JsonObject, key: string): string[] {
  return listAt(from, key).map((item, index) => {
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
