import { admins } from "../../src/http/access.js";
import type {
  EmergencyRevocation,
  EmergencyRevocationList,
} from "../../src/http/auth/emergency-revocations.js";
import { ProblemError } from "../../src/http/errors.js";
import { defineRoute } from "../../src/http/route.js";
import { reasonSchema } from "../../src/http/schemas/common.js";
import {
  SERVICE_TOKEN_ROLES,
  type ServiceToken,
  type ServiceTokenRequest,
  ServiceTokenRequestError,
} from "../../src/identity/service-tokens.js";

const revocationSchema = {
  type: "object",
  required: ["kind", "value", "reason", "revokedAt"],
  properties: {
    kind: { type: "string", enum: ["subject", "token"] },
    value: { type: "string" },
    reason: { type: "string" },
    revokedBy: { type: "string" },
    revokedAt: { type: "string", format: "date-time" },
  },
} as const;

const revocationTargetBody = {
  type: "object",
  required: ["kind", "value", "reason"],
  properties: {
    kind: {
      type: "string",
      enum: ["subject", "token"],
      description:
        "`subject`: every token of a user, partner or service token URN; `token`: one token by its jti",
    },
    value: { type: "string", minLength: 1, maxLength: 512 },
    reason: reasonSchema,
  },
} as const;

function toWire({ _id, tenant, ...entry }: EmergencyRevocation) {
  return entry;
}

/**
 * Emergency revocation (spec 5.1): a list checked on every authenticated request; entries never
 * expire and are removed by hand. An ADMIN manages its own airline's entries.
 */
export function revocationRoutes(list: EmergencyRevocationList) {
  return [
    defineRoute({
      method: "POST",
      path: "/v1/admin/revocations",
      operationId: "addEmergencyRevocation",
      summary: "End every session of a subject, or one token, at once",
      tags: ["Administration"],
      access: admins,
      body: revocationTargetBody,
      audit: {
        action: "revocation.add",
        subject: ({ body }) => ({ entityUrn: body.kind === "subject" ? body.value : null }),
      },
      responses: {
        201: { description: "Listed; the next request with such a token gets 401", schema: revocationSchema },
      },
      handler: async ({ body, principal }) => ({
        status: 201,
        body: toWire(
          await list.add(
            { kind: body.kind, value: body.value },
            body.reason,
            principal.actorUrn,
            principal.tenant,
          ),
        ),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/admin/revocations",
      operationId: "listEmergencyRevocations",
      summary: "Entries of the emergency revocation list of the caller's airline",
      tags: ["Administration"],
      access: admins,
      responses: {
        200: {
          description: "Every entry, oldest first",
          schema: {
            type: "object",
            required: ["items"],
            properties: { items: { type: "array", items: revocationSchema } },
          },
        },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: { items: (await list.list(principal.tenant)).map(toWire) },
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/admin/revocations/remove",
      operationId: "removeEmergencyRevocation",
      summary: "Take an entry off the emergency revocation list",
      tags: ["Administration"],
      access: admins,
      body: revocationTargetBody,
      audit: {
        action: "revocation.remove",
        subject: ({ body }) => ({ entityUrn: body.kind === "subject" ? body.value : null }),
      },
      responses: { 204: { description: "Removed" } },
      handler: async ({ body, principal }) => {
        if (!(await list.remove({ kind: body.kind, value: body.value }, principal.tenant))) {
          throw new ProblemError({
            status: 404,
            category: "not-found",
            code: "revocation",
            detail: "No such entry",
          });
        }
        return { status: 204 };
      },
    }),
  ];
}

const serviceTokenSchema = {
  type: "object",
  required: ["token", "tokenId", "actorUrn", "expiresAt"],
  properties: {
    token: { type: "string", description: "The bearer token; shown once and never again" },
    tokenId: { type: "string", description: "The token's jti, for the emergency revocation list" },
    actorUrn: { type: "string" },
    expiresAt: { type: "string", format: "date-time" },
  },
} as const;

/** Spec 5.1: an ADMIN mints a service token scoped to a role and optionally one airport; shown once. */
export function serviceTokenRoute(mint: (request: ServiceTokenRequest) => Promise<ServiceToken>) {
  return defineRoute({
    method: "POST",
    path: "/v1/admin/service-tokens",
    operationId: "mintServiceToken",
    summary: "Mint a service token (the value is shown once)",
    tags: ["Administration"],
    access: admins,
    // The token must never be replayed from an idempotency store.
    idempotent: false,
    body: {
      type: "object",
      required: ["role"],
      properties: {
        role: { type: "string", enum: SERVICE_TOKEN_ROLES },
        airport: { type: "string", pattern: "^[A-Z]{3}$" },
        ttlSeconds: { type: "integer", minimum: 60, maximum: 31_536_000, default: 2_592_000 },
      },
    },
    responses: { 201: { description: "The token", schema: serviceTokenSchema } },
    handler: async ({ body, principal, ctx }) => {
      try {
        const minted = await mint({
          tenant: principal.tenant,
          role: body.role,
          ttl: body.ttlSeconds,
          ...(body.airport ? { airport: body.airport } : {}),
        });
        ctx.set("Cache-Control", "no-store");
        return { status: 201, body: { ...minted, expiresAt: new Date(minted.expiresAt).toISOString() } };
      } catch (error) {
        if (error instanceof ServiceTokenRequestError) {
          throw new ProblemError({
            status: 422,
            category: "unprocessable",
            code: "service-token",
            detail: error.message,
          });
        }
        throw error;
      }
    },
  });
}
