/**
 * What the action forms' text inputs mean as JSON request members. Pure: the console's forms and
 * their unit tests share it.
 */

/** A number input's value: absent when empty. */
export function numberOrAbsent(value: string): number | undefined {
  return value.trim() === "" ? undefined : Number(value);
}

/** The members given: those left undefined are dropped, so a body says only what the operator set. */
export function given(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

/** A typed value: JSON when it reads as JSON (numbers, lists, null), else the text itself. */
export function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Passenger ids per part: one line a part, ids separated by commas or spaces. */
export function partsOf(text: string): string[][] {
  return text
    .split("\n")
    .map((line) => line.split(/[,\s]+/).filter(Boolean))
    .filter((part) => part.length > 0);
}

/** A list typed as text: items separated by commas. */
export function listOf(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A datetime-local input's value (the browser's local time) as an ISO 8601 UTC timestamp. */
export function isoFromLocal(value: string): string {
  return new Date(value).toISOString();
}

type JsonObject = Record<string, unknown>;

/** `object` with the member at `path` set to `value` (removed when undefined); `object` is left as it was. */
export function withMember(object: JsonObject, path: readonly string[], value: unknown): JsonObject {
  const next: JsonObject = structuredClone(object);
  // Removing what is not there changes nothing (and makes no empty parent).
  if (value === undefined && memberAt(next, path) === undefined) return next;
  let node = next;
  for (const step of path.slice(0, -1)) {
    if (typeof node[step] !== "object" || node[step] === null || Array.isArray(node[step])) node[step] = {};
    node = node[step] as JsonObject;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return next;
}

/** The member at `path`, undefined when any step is missing. */
export function memberAt(object: JsonObject, path: readonly string[]): unknown {
  let node: unknown = object;
  for (const step of path) node = (node as JsonObject | undefined)?.[step];
  return node;
}
