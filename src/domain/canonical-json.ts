import { hash } from "node:crypto";

/** JSON with object keys sorted, so member order does not change a hash or fingerprint. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** `sha256:<hex>` of the canonical JSON of a payload. */
export function payloadHash(payload: unknown): string {
  return `sha256:${hash("sha256", canonicalJson(payload), "hex")}`;
}
