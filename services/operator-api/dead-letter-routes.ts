import { admins } from "../../src/http/access.js";
import { pageQuery, pageRequest, toPageEnvelope } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import { pageSchema, urnSchema } from "../../src/http/schemas/common.js";
import type { DeadLetterRecord, DeadLetterStore } from "../../src/runtime/dead-letters.js";

const deadLetterSchema = {
  type: "object",
  required: ["subscription", "topic", "reason", "deadLetteredAt", "event"],
  properties: {
    subscription: { type: "string", description: "The subscription that gave up on the event" },
    topic: { type: "string" },
    reason: {
      type: "string",
      enum: ["dropped", "retries-exhausted"],
      description:
        "`dropped`: the handler refused the event, or failed under a dead-letter policy; " +
        "`retries-exhausted`: it kept failing until its retries with backoff ran out",
    },
    deadLetteredAt: { type: "string", format: "date-time" },
    event: {
      type: "object",
      required: ["id", "type", "tenant", "occurredAt", "correlationUrn", "data"],
      properties: {
        id: urnSchema,
        type: { type: "string" },
        tenant: urnSchema,
        occurredAt: { type: "string", format: "date-time" },
        correlationUrn: { type: "string" },
        caseUrn: urnSchema,
        data: {},
      },
    },
  },
} as const;

const page = pageSchema(deadLetterSchema);

const deadLetterPageSchema = {
  ...page,
  required: [...page.required, "total"],
  properties: {
    ...page.properties,
    total: { type: "integer", minimum: 0, description: "Dead letters of the airline so far" },
  },
} as const;

function toWire({ _id, tenant, ...letter }: DeadLetterRecord) {
  return letter;
}

/**
 * Events that subscriptions gave up on (refused, or failed until their retries ran out), newest
 * first: nothing a handler fails on is acknowledged silently (src/runtime/subscription-policy.ts).
 */
export function deadLetterRoutes(store: DeadLetterStore) {
  return [
    defineRoute({
      method: "GET",
      path: "/v1/admin/dead-letters",
      operationId: "listDeadLetters",
      summary: "Events the caller's airline's subscriptions gave up on, newest first",
      tags: ["Administration"],
      access: admins,
      query: pageQuery(),
      responses: { 200: { description: "A page of dead letters", schema: deadLetterPageSchema } },
      handler: async ({ query, principal }) => {
        const [letters, total] = await Promise.all([
          store.list(principal.tenant, pageRequest(query)),
          store.count(principal.tenant),
        ]);
        return { status: 200, body: { ...toPageEnvelope(letters, toWire), total } };
      },
    }),
  ];
}
