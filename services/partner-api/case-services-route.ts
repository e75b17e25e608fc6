import type { CaseServiceReads } from "../../src/app/case-services/case-services.js";
import { defineRoute } from "../../src/http/route.js";
import {
  SEGMENT_STATUSES,
  TRANSPORT_DIRECTIONS,
  VEHICLE_TYPES,
} from "../../src/domain/transport/transport-segment.js";
import { WALLET_CARD_STATUSES } from "../../src/domain/wallet/wallet-card.js";
import { caseUrnParams, timestampSchema, urnOf, urnSchema } from "../../src/http/schemas/common.js";
import { partnerBookingSchema } from "../booking/booking-schemas.js";
import { auditCase } from "../cases/operator-routes.js";

const nullableString = { type: ["string", "null"] } as const;

/** A transport leg as a partner reads it (src/app/case-services/case-services.ts `PartnerTransportLeg`). */
const transportLegSchema = {
  type: "object",
  required: [
    "urn",
    "groupId",
    "reservationUrn",
    "direction",
    "status",
    "scheduledAt",
    "vehicleType",
    "passengers",
    "pickupLocation",
    "dropoffLocation",
    "vehicle",
    "dispatcherPhone",
    "etaAt",
  ],
  properties: {
    urn: urnOf("transport-segment"),
    groupId: { type: "string" },
    reservationUrn: urnSchema,
    direction: { type: "string", enum: TRANSPORT_DIRECTIONS },
    status: { type: "string", enum: SEGMENT_STATUSES },
    scheduledAt: { ...timestampSchema, description: "Pickup time" },
    vehicleType: { type: "string", enum: VEHICLE_TYPES },
    passengers: { type: "integer" },
    pickupLocation: { type: "string" },
    dropoffLocation: { type: "string" },
    vehicle: { ...nullableString, description: "Vehicle and plate, when the provider gave them" },
    dispatcherPhone: { ...nullableString, description: "The provider's dispatcher contact number" },
    etaAt: { ...nullableString, description: "When the vehicle is expected at the pickup point" },
  },
} as const;

/** A wallet card as a partner reads it: which group holds it and its state, no balances. */
const walletCardSchema = {
  type: "object",
  required: ["urn", "groupId", "status", "issuedAt"],
  properties: {
    urn: urnSchema,
    groupId: { type: "string" },
    status: { type: "string", enum: WALLET_CARD_STATUSES },
    issuedAt: timestampSchema,
  },
} as const;

const caseServicesSchema = {
  type: "object",
  required: ["caseUrn", "hotels", "transport", "walletCards"],
  properties: {
    caseUrn: urnOf("case"),
    hotels: {
      type: "array",
      items: partnerBookingSchema,
      description:
        "Every hotel reservation of the case, oldest first, with its voucher URN (as GET /partner/v1/bookings/{urn})",
    },
    transport: {
      type: "array",
      items: transportLegSchema,
      description: "Ground transport segments of the case (spec 2.8), by group then direction",
    },
    walletCards: {
      type: "array",
      items: walletCardSchema,
      description: "Virtual prepaid cards of the case (spec 2.7), by group then issue time",
    },
  },
} as const;

/** `GET /partner/v1/cases/{case_urn}/services` (spec 4.3, scope cases.read). */
export function caseServicesRoute(services: CaseServiceReads) {
  return defineRoute({
    method: "GET",
    path: "/partner/v1/cases/:caseUrn/services",
    operationId: "partnerGetCaseServices",
    summary: "Hotel, transport and wallet services of a case",
    description:
      "What the platform arranged for the case's passengers, read from the records that hold it: each hotel " +
      "reservation (stay, status, guests by name, voucher URN; no cost or payment), each ground transport leg " +
      "(pickup, vehicle, dispatcher contact, state; no price or driver's name) and each wallet card (group, " +
      "state, issue time; no balance, number or issuer id). A list holds only what was recorded for the case.",
    tags: ["Partner cases"],
    access: { kind: "partner", scope: "cases.read" },
    params: caseUrnParams,
    audit: auditCase(),
    responses: { 200: { description: "The services", schema: caseServicesSchema } },
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await services.ofCase(principal, params.caseUrn),
    }),
  });
}
