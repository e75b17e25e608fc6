import type { AirportFreezes } from "../../src/app/demand/airport-freezes.js";
import { admins } from "../../src/http/access.js";
import { ProblemError } from "../../src/http/errors.js";
import { defineRoute } from "../../src/http/route.js";
import { reasonSchema } from "../../src/http/schemas/common.js";
import { demandSchema } from "./demand-schemas.js";

const tags = ["Administration"] as const;

const freezeSchema = {
  type: "object",
  required: ["airport", "reason", "frozenBy", "frozenAt"],
  properties: {
    airport: { type: "string" },
    reason: { type: "string" },
    frozenBy: { type: "string" },
    frozenAt: { type: "string", format: "date-time" },
  },
} as const;

const freezeBody = {
  type: "object",
  additionalProperties: false,
  required: ["airport", "reason"],
  properties: {
    airport: {
      type: "string",
      pattern: "^[A-Z]{3}$",
      description: "IATA code; a case's airport is its flight's origin",
    },
    reason: reasonSchema,
  },
} as const;

function toWire({
  tenant,
  ...freeze
}: {
  tenant: string;
  airport: string;
  reason: string;
  frozenBy: string;
  frozenAt: string;
}) {
  return freeze;
}

/**
 * Airport freezes (spec 3.1, "system policy (e.g. airport freeze)"): an ADMIN freezes an airport of
 * its own airline, which rejects the airport's REQUESTED demand at once and any demand requested
 * while the freeze lasts, and refuses approvals there (409 airport-frozen); lifting it ends that.
 */
export function airportFreezeRoutes(freezes: AirportFreezes) {
  return [
    defineRoute({
      method: "POST",
      path: "/v1/admin/airport-freezes",
      operationId: "freezeAirport",
      summary: "Freeze an airport: its demand is rejected by the system until the freeze is lifted",
      tags,
      access: admins,
      body: freezeBody,
      audit: {
        action: "airport.freeze.request",
        subject: ({ body }) => ({ entityUrn: `urn:airport:${body.airport}` }),
      },
      responses: {
        201: {
          description: "The freeze, and the REQUESTED demand it rejected",
          schema: {
            type: "object",
            required: ["freeze", "rejected"],
            properties: { freeze: freezeSchema, rejected: { type: "array", items: demandSchema } },
          },
        },
      },
      handler: async ({ body, principal, correlationUrn }) => {
        const { freeze, rejected } = await freezes.freeze(
          { principal, correlationUrn },
          body.airport,
          body.reason,
        );
        return { status: 201, body: { freeze: toWire(freeze), rejected } };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/admin/airport-freezes",
      operationId: "listAirportFreezes",
      summary: "The airports of the caller's airline that are frozen",
      tags,
      access: admins,
      responses: {
        200: {
          description: "Every freeze in force, by airport",
          schema: {
            type: "object",
            required: ["items"],
            properties: { items: { type: "array", items: freezeSchema } },
          },
        },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: { items: (await freezes.list(principal.tenant)).map(toWire) },
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/admin/airport-freezes/lift",
      operationId: "liftAirportFreeze",
      summary: "Lift an airport's freeze; rejected demand stays rejected",
      tags,
      access: admins,
      body: freezeBody,
      audit: {
        action: "airport.unfreeze.request",
        subject: ({ body }) => ({ entityUrn: `urn:airport:${body.airport}` }),
      },
      responses: { 204: { description: "Lifted" } },
      handler: async ({ body, principal, correlationUrn }) => {
        if (!(await freezes.lift({ principal, correlationUrn }, body.airport, body.reason))) {
          throw new ProblemError({
            status: 404,
            category: "not-found",
            code: "airport-freeze",
            detail: `Airport ${body.airport} is not frozen`,
          });
        }
        return { status: 204 };
      },
    }),
  ];
}
