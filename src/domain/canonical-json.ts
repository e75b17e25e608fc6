import { hash } from "node:crypto";

/**
 * JSON with object keys sorted, so member order does not change a hash or fingerprint: exactly what
 * `JSON.stringify` gives for a copy of the value whose objects have their keys inserted in sorted
 * order (so, as there, integer-like keys come first in numeric order, then the others sorted).
 *
 * Written out by hand rather than through a `JSON.stringify` replacer, which rebuilds every object
 * on the way: this runs for every audited request and every idempotent write.
 */
export function canonicalJson(value: unknown): string {
  return serialized(value ?? null, "") ?? "null";
}

/** `sha256:<hex>` of the canonical JSON of a payload. */
export function payloadHash(payload: unknown): string {
  const text = canonicalJson(payload);
  if (text.length > REMEMBERED_TEXT_LENGTH) return sha256(text);
  let digest = rememberedHashes.get(text);
  if (digest === undefined) {
    digest = sha256(text);
    if (rememberedHashes.size >= REMEMBERED_HASHES) rememberedHashes.clear();
    rememberedHashes.set(text, digest);
  }
  return digest;
}

/**
 * Reads repeat the same small payloads (method, path, query) over and over, and a call into the
 * hash costs more than looking its answer up; large payloads (request bodies) are hashed each time.
 */
const rememberedHashes = new Map<string, string>();
const REMEMBERED_HASHES = 1_000;
const REMEMBERED_TEXT_LENGTH = 512;

function sha256(text: string): string {
  return `sha256:${hash("sha256", text, "hex")}`;
}

/** The JSON text of `value` under `key`, or undefined where JSON.stringify leaves a member out. */
function serialized(value: unknown, key: string): string | undefined {
  if (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      // Refused with JSON.stringify's own TypeError.
      return JSON.stringify(value);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) return arrayJson(value);
      if (value instanceof Number || value instanceof String || value instanceof Boolean) {
        return JSON.stringify(value);
      }
      return objectJson(value as Record<string, unknown>);
    }
    default:
      // undefined, functions and symbols have no JSON form.
      return undefined;
  }
}

function arrayJson(items: readonly unknown[]): string {
  let text = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ",";
    text += serialized(items[i], String(i)) ?? "null";
  }
  return `${text}]`;
}

function objectJson(members: Record<string, unknown>): string {
  const keys = Object.keys(members);
  // Object.keys lists integer-like keys first, ascending; those keep that order, the rest are sorted.
  let firstNamed = 0;
  while (firstNamed < keys.length && isArrayIndex(keys[firstNamed]!)) firstNamed++;
  if (keys.length - firstNamed > 1) {
    const named = keys.slice(firstNamed).sort();
    for (let i = 0; i < named.length; i++) keys[firstNamed + i] = named[i]!;
  }
  let text = "{";
  let first = true;
  for (const key of keys) {
    const member = serialized(members[key], key);
    if (member === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:${member}`;
    first = false;
  }
  return `${text}}`;
}

/** What V8 orders first among an object's keys: canonical integers below 2^32 - 1. */
function isArrayIndex(key: string): boolean {
  const code = key.charCodeAt(0);
  if (code < 48 || code > 57) return false;
  if (key.length > 1 && code === 48) return false;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(key) < 4_294_967_295;
}
