import { OPERATOR_ROLES } from "../../src/domain/roles.js";
import { defineRoute } from "../../src/http/route.js";
import type { OperatorLogout } from "./operator-logout.js";

/** `POST /v1/auth/logout` for every operator role (spec 5.1 logout order). */
export function logoutRoute(logout: OperatorLogout) {
  return defineRoute({
    method: "POST",
    path: "/v1/auth/logout",
    operationId: "operatorLogout",
    summary: "Log out: close live connections and release locks, then revoke the refresh token",
    description:
      "Step 1 (closing the caller's WebSocket connections with code 4001 and releasing every sub-case lock " +
      "the caller holds) has finished before step 2 (revoking `refreshToken` at the identity provider, " +
      "which ends the whole token family) starts, and both before the answer. Without `refreshToken` the " +
      "session of the presented access token is revoked instead. Clearing client state is the console's step 3.",
    tags: ["Authentication"],
    access: { kind: "operator", anyOf: OPERATOR_ROLES },
    body: {
      type: "object",
      properties: {
        refreshToken: {
          type: "string",
          minLength: 1,
          maxLength: 4096,
          description: "The console's refresh token",
        },
      },
    },
    audit: {
      action: "operator.logout",
      subject: ({ principal }) => ({ entityUrn: principal?.actorUrn ?? null }),
    },
    responses: {
      204: { description: "Logged out" },
      503: { description: "Step 1 is done but the identity provider could not revoke the refresh token" },
    },
    handler: async ({ principal, body, correlationUrn, log }) => {
      const closed = await logout.execute(principal, body.refreshToken, correlationUrn);
      log.info({ operator: principal.actorUrn, ...closed }, "operator logged out");
      return { status: 204 };
    },
  });
}
