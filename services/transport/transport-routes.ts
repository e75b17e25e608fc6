import { receiveSignedCallback } from "../../src/http/signed-callback.js";
import type { CaseTransfers } from "../../src/app/transport/case-transfers.js";
import type { RideCallbacks } from "../../src/app/transport/ride-callbacks.js";
import type { TransportSegments } from "../../src/app/transport/transport-segments.js";
import type { TransportSegment } from "../../src/domain/transport/transport-segment.js";
import { defineRoute } from "../../src/http/route.js";
import { caseUrnParams, urnOf } from "../../src/http/schemas/common.js";
import {
  retimeBody,
  rideCallbackBody,
  segmentCreateBody,
  segmentParams,
  segmentSchema,
  transferOutcomeSchema,
  transferRequestBody,
  vehicleBody,
} from "./transport-schemas.js";

const tags = ["Transport"] as const;

/** Spec 4.1 and 4.2 give AIRPORT_OPERATOR+ (the field manual names no role); scoped operators act on their airport. */
const operators = { kind: "operator", anyOf: ["AIRPORT_OPERATOR"], airportScoped: true } as const;

const segmentAnswer = (description: string) => ({ description, schema: segmentSchema });
const refusals = {
  404: { description: "No such segment (or reservation, case, group)" },
  409: {
    description:
      "The segment cannot take the change in its state (`transport-segment-not-changeable`), or the group's leg " +
      "stands already with other fields (`transport-segment-exists`)",
  },
  503: {
    description: "The ride provider is out of reach (`failedDomain: transport` while its circuit is open)",
  },
};

/** The audit entry names the segment and its case; the body's reason is in the entry's payload. */
const auditSegment = (action: string) => ({
  action,
  subject: (_input: unknown, response: { body?: unknown }) => {
    const segment = response.body as Partial<TransportSegment> | undefined;
    return { entityUrn: segment?.urn ?? null, caseUrn: segment?.caseUrn ?? null };
  },
});

export interface TransportRouteDeps {
  segments: TransportSegments;
  transfers: CaseTransfers;
  callbacks: RideCallbacks;
}

/** Ground transport (spec 2.8, 4.1, 4.2, 6.3). */
export function transportRoutes({ segments, transfers, callbacks }: TransportRouteDeps) {
  return [
    defineRoute({
      method: "POST",
      path: "/transport/segments",
      operationId: "createTransportSegment",
      summary: "Ask for a ground-transport leg of a reservation's group (spec 2.8 fields)",
      description:
        "One segment per group and direction: its URN follows from the case, the group and the direction. The " +
        "ride provider is asked at once: the answer is BOOKED, DECLINED (the provider refused: `providerError`) or " +
        "PENDING (the provider was out of reach: ask again). The vehicle is the case policy's for the group's " +
        "tiers unless given, and a WHEELCHAIR_VAN when a passenger's special requirements need one. The same " +
        "request again answers the same segment; other fields for a standing leg are 409 " +
        "`transport-segment-exists` (retime it, change its vehicle or cancel it); a DECLINED or CANCELLED leg is " +
        "asked for again.",
      tags,
      access: operators,
      body: segmentCreateBody,
      audit: auditSegment("transport.segment.create"),
      responses: {
        201: segmentAnswer("The segment as the provider left it"),
        ...refusals,
        409: {
          description: "The reservation does not hold its rooms, or the group's leg stands with other fields",
        },
      },
      handler: async ({ principal, correlationUrn, body }) => ({
        status: 201,
        body: await segments.create({ principal, correlationUrn }, body),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/transport/segments/:segmentUrn",
      operationId: "getTransportSegment",
      summary: "A transport segment: its state, its ride, driver, vehicle and ETA",
      tags,
      access: operators,
      params: segmentParams,
      responses: { 200: segmentAnswer("The segment"), 404: refusals[404] },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: await segments.get(principal, params.segmentUrn),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/transport/segments/:segmentUrn/retime",
      operationId: "retimeTransportSegment",
      summary: "Move a segment's pickup time, with a reason (audited)",
      description:
        "A PENDING or BOOKED segment. A ride of its own is changed at the provider; a group sharing a shuttle run " +
        "gets a ride of its own, the run keeps its time for the others.",
      tags,
      access: operators,
      params: segmentParams,
      body: retimeBody,
      audit: auditSegment("transport.segment.retime"),
      responses: { 200: segmentAnswer("The segment with its new pickup time"), ...refusals },
      handler: async ({ principal, correlationUrn, params, body }) => ({
        status: 200,
        body: await segments.retime(
          { principal, correlationUrn },
          params.segmentUrn,
          body.scheduledAt,
          body.reason,
        ),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/transport/segments/:segmentUrn/vehicle",
      operationId: "changeTransportSegmentVehicle",
      summary: "Change a segment's vehicle type, with a reason (audited)",
      description: "A PENDING or BOOKED segment; the provider sends another vehicle and driver.",
      tags,
      access: operators,
      params: segmentParams,
      body: vehicleBody,
      audit: auditSegment("transport.segment.vehicle"),
      responses: { 200: segmentAnswer("The segment with its new vehicle"), ...refusals },
      handler: async ({ principal, correlationUrn, params, body }) => ({
        status: 200,
        body: await segments.changeVehicle(
          { principal, correlationUrn },
          params.segmentUrn,
          body.vehicleType,
          body.reason,
        ),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/transport/segments/:segmentUrn/cancel",
      operationId: "cancelTransportSegment",
      summary: "Cancel a segment, with a reason (audited)",
      description:
        "Cancels the ride at the provider unless other groups still ride in it (a shuttle run). Cancelling a " +
        "cancelled segment changes nothing; a COMPLETED one is 409.",
      tags,
      access: operators,
      params: segmentParams,
      body: {
        type: "object",
        required: ["reason"],
        properties: { reason: retimeBody.properties.reason },
      },
      audit: auditSegment("transport.segment.cancel"),
      responses: { 200: segmentAnswer("The cancelled segment"), ...refusals },
      handler: async ({ principal, correlationUrn, params, body }) => ({
        status: 200,
        body: await segments.cancel({ principal, correlationUrn }, params.segmentUrn, body.reason),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/transport/cases/:caseUrn/transfers/request",
      operationId: "requestCaseTransfers",
      summary: "Request ground transport from the ride provider for a whole case",
      description:
        "For every group holding a reservation (or the `groupIds` named), in both directions unless `directions` " +
        "says otherwise: the vehicle per tier from the case's policy (`transport.perTier`, else `transport.mode`), " +
        "a WHEELCHAIR_VAN for passengers whose special requirements need one, pickups `minutesBeforePickup` from " +
        "now to the hotel and three hours before the next flight back to the airport. SHUTTLE groups share runs: " +
        "in pickup order, up to `shuttleCapacity` seats, pickups within 30 minutes of the run's first; a group is " +
        "never split. A leg that stands already is not asked again (a PENDING one is retried), so the request may " +
        "be repeated.",
      tags,
      access: operators,
      params: caseUrnParams,
      body: transferRequestBody,
      audit: { action: "transport.transfers.request" },
      responses: {
        200: { description: "The case's legs as the provider left them", schema: transferOutcomeSchema },
        404: { description: "No such case, or a named group is not in it (`groupIds`)" },
        503: refusals[503],
      },
      handler: async ({ principal, correlationUrn, params, body }) => ({
        status: 200,
        body: await transfers.request(principal, params.caseUrn, body, correlationUrn),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/transport/callbacks/:provider",
      operationId: "receiveRideCallback",
      summary: "Progress callback of the ride provider (driver assigned, ETA, completed, cancelled)",
      description:
        "Spec 6.3. Signed by the provider as every inbound vendor webhook: `X-Vendor-Signature: sha256=<base64 " +
        "HMAC-SHA256>` over `X-Vendor-Signature-Timestamp` (Unix seconds, at most 5 minutes off) + `.` + the raw " +
        "body, keyed with the provider's callback secret. A bad signature is 401; an unknown ride 404; an " +
        "`X-Vendor-Event-Id` seen before is acknowledged (200, `duplicate: true`) and dropped. An ETA reaches the " +
        "group's passenger stream (`transport.eta-updated`).",
      tags,
      surface: "operator",
      access: { kind: "public" },
      idempotent: false,
      params: { type: "object", properties: { provider: { type: "string", minLength: 1, maxLength: 50 } } },
      body: rideCallbackBody,
      responses: {
        200: {
          description: "Applied, or a duplicate acknowledged and dropped",
          schema: {
            type: "object",
            required: ["segmentUrns", "duplicate"],
            properties: {
              segmentUrns: { type: "array", items: urnOf("transport-segment") },
              duplicate: { type: "boolean" },
            },
          },
        },
        401: { description: "Bad or stale signature" },
        404: { description: "No such provider, or no segment rides in that ride" },
      },
      handler: async ({ params, ctx, correlationUrn }) => {
        const outcome = await receiveSignedCallback(ctx, correlationUrn, (callback) =>
          callbacks.receive(params.provider, callback),
        );
        return {
          status: 200,
          body: { segmentUrns: outcome.segmentUrns, duplicate: outcome.outcome === "duplicate" },
        };
      },
    }),
  ];
}
