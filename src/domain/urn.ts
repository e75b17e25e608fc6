import { randomUuid } from "./uuid.js";

/** Every identifier on the wire is `urn:<kind>:<id>` (spec part 2). */
export function urn(kind: string, id?: string): string {
  return id === undefined ? randomUuid(`urn:${kind}:`) : `urn:${kind}:${id}`;
}

export interface ParsedUrn {
  kind: string;
  id: string;
  /** Trailing `key:value` segments, e.g. `vendor` and `status` of a reservation URN. */
  attributes: Record<string, string>;
}

/**
 * Accepts both forms the spec shows: `urn:<kind>:<id>[:<key>:<value>...]` and the operator-page
 * form `urn:<namespace>:<kind>:<id>` when `expectedKind` names the kind.
 */
export function parseUrn(value: string, expectedKind?: string): ParsedUrn | undefined {
  const parts = value.split(":");
  if (parts.length < 3 || parts[0] !== "urn" || parts.some((p) => p === "")) return undefined;
  let at = 1;
  if (expectedKind && parts[1] !== expectedKind && parts[2] === expectedKind && parts.length >= 4) at = 2;
  const kind = parts[at]!;
  const id = parts[at + 1]!;
  if (expectedKind && kind !== expectedKind) return undefined;
  const rest = parts.slice(at + 2);
  if (rest.length % 2 !== 0) return undefined;
  const attributes: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) attributes[rest[i]!] = rest[i + 1]!;
  return { kind, id, attributes };
}
