import { defineRoute, type Route, type Surface } from "../../src/http/route.js";
import { ProblemError } from "../../src/http/errors.js";
import { assessReadiness, type ReadinessCheck } from "../../src/runtime/readiness.js";

const checksSchema = {
  type: "array",
  description: "Every dependency probed, and whether it answered",
  items: {
    type: "object",
    required: ["name", "ready"],
    properties: {
      name: { type: "string", description: "state store, document store, counter store, or Dapr sidecar" },
      ready: { type: "boolean" },
    },
  },
} as const;

const readySchema = {
  type: "object",
  required: ["status", "checks"],
  properties: { status: { type: "string", enum: ["ready"] }, checks: checksSchema },
} as const;

const OPERATION_PREFIX: Record<Surface, string> = {
  operator: "",
  partner: "Partner",
  passenger: "Passenger",
};

/**
 * Liveness and readiness for load balancers, Kubernetes probes and a newcomer without a token:
 * `/healthz` answers while the process does; `/readyz` answers 200 once every dependency the
 * process serves from answers (its stores, and the Dapr sidecar on the distributed runtime), 503
 * with a problem naming those that do not otherwise. Both are declared once per surface, so each
 * surface's OpenAPI document lists them and each host serves them.
 */
export function healthRoutes(readiness: readonly ReadinessCheck[]): Route[] {
  return (["operator", "partner", "passenger"] as const).flatMap((surface) => {
    const prefix = OPERATION_PREFIX[surface];
    return [
      defineRoute({
        method: "GET",
        path: "/healthz",
        operationId: `get${prefix}Health`,
        summary: "Liveness: the process answers",
        description: "No token needed. Says nothing of the stores: that is `/readyz`.",
        tags: ["Platform"],
        surface,
        access: { kind: "public" },
        responses: {
          200: {
            description: "The process answers",
            contentType: "text/plain",
            schema: { type: "string", enum: ["ok"] },
          },
        },
        handler: () => ({ status: 200, body: "ok" as const }),
      }),
      defineRoute({
        method: "GET",
        path: "/readyz",
        operationId: `get${prefix}Readiness`,
        summary: "Readiness: the stores (and the Dapr sidecar, when used) answer",
        description: `No token needed. Each dependency is probed with a read bounded by a few seconds.`,
        tags: ["Platform"],
        surface,
        access: { kind: "public" },
        responses: {
          200: { description: "Every dependency answers", schema: readySchema },
          503: {
            description:
              "Not ready (`…/unavailable/not-ready`): `notReady` names the dependencies that did not answer, `checks` lists them all",
          },
        },
        handler: async ({ log }) => {
          const results = await assessReadiness(readiness);
          const checks = results.map(({ name, ready }) => ({ name, ready }));
          const notReady = results.filter((r) => !r.ready);
          if (notReady.length === 0) return { status: 200, body: { status: "ready" as const, checks } };
          for (const { name, error } of notReady) log.warn({ err: error, dependency: name }, "not ready");
          throw new ProblemError({
            status: 503,
            category: "unavailable",
            code: "not-ready",
            detail: `Not ready: ${notReady.map((r) => r.name).join(", ")} did not answer`,
            extensions: { notReady: notReady.map((r) => r.name), checks },
          });
        },
      }),
    ];
  });
}
