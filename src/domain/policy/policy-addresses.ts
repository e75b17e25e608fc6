import { createHash } from "node:crypto";
import { type NumberedAddress, numberedUrns } from "../numbered-urn.js";

/**
 * Where a policy lives. Every policy of one context (tenant + airport + airline + tier set, spec
 * 3.2) lives in one PolicyContextActor, whose single mailbox makes activation atomic. The actor id
 * is derived from the context, and a policy URN carries its actor id, so any replica finds the
 * actor from a URN alone: `urn:policy:<context id>.<number>`.
 */

/** The PolicyContextActor id of a context: 24 hex digits of SHA-256 over tenant and context key. */
export function policyContextId(tenant: string, contextKey: string): string {
  return createHash("sha256").update(`${tenant}\u0000${contextKey}`).digest("hex").slice(0, 24);
}

const policies = numberedUrns("policy", "contextId", "[0-9a-f]{24}");

export const policyUrn = policies.urnOf;
export type PolicyAddress = NumberedAddress<"contextId">;
export const policyAddress = policies.addressOf;
