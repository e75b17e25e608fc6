/**
 * A case's passenger groups on the wire (spec 2.1): the ids a manifest carries, and the split a
 * case and a review item both offer.
 */
import { reasonSchema } from "./common.js";

/** A passenger or group id as a manifest carries it. */
export const identifierSchema = { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" } as const;

/** A group split into parts, each a list of its passengers (the case route and the review item's). */
export const splitBody = {
  type: "object",
  required: ["into", "reason"],
  properties: {
    into: {
      type: "array",
      minItems: 2,
      maxItems: 100,
      items: { type: "array", minItems: 1, maxItems: 500, items: identifierSchema },
      description: "The parts, each a list of passenger ids of the group",
    },
    reason: reasonSchema,
  },
} as const;
