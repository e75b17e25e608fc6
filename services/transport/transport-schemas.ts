import { RIDE_CALLBACK_TYPES } from "../../src/domain/transport/ride-callbacks.js";
import {
  SEGMENT_STATUSES,
  TRANSPORT_DIRECTIONS,
  VEHICLE_TYPES,
} from "../../src/domain/transport/transport-segment.js";
import {
  moneySchema,
  reasonSchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";

/** Wire schemas of the transport routes (spec 2.8, 4.1, 4.2). */

const direction = { type: "string", enum: TRANSPORT_DIRECTIONS } as const;
const vehicleType = {
  type: "string",
  enum: VEHICLE_TYPES,
  description:
    "SHUTTLE, PRIVATE_CAR and TAXI are the policy's modes; WHEELCHAIR_VAN for special requirements",
} as const;
const specialRequirements = {
  type: "array",
  maxItems: 20,
  items: { type: "string", minLength: 1, maxLength: 100 },
  description: "e.g. WCHR (wheelchair: a wheelchair van is sent)",
} as const;
const nullableString = { type: ["string", "null"] } as const;

export const segmentParams = {
  type: "object",
  properties: { segmentUrn: urnOf("transport-segment") },
} as const;

/** Spec 2.8: the segment creation input. */
export const segmentCreateBody = {
  type: "object",
  required: ["reservationUrn", "direction", "scheduledAt"],
  properties: {
    reservationUrn: urnOf("reservation"),
    direction,
    scheduledAt: { ...timestampSchema, description: "Pickup time" },
    vehicleType: {
      ...vehicleType,
      description: `${vehicleType.description}; the policy's for the group when absent`,
    },
    specialRequirements: {
      ...specialRequirements,
      description: "Added to the group's passengers' own (the manifest's specialRequirements)",
    },
  },
} as const;

export const retimeBody = {
  type: "object",
  required: ["scheduledAt", "reason"],
  properties: {
    scheduledAt: { ...timestampSchema, description: "The new pickup time" },
    reason: reasonSchema,
  },
} as const;

export const vehicleBody = {
  type: "object",
  required: ["vehicleType", "reason"],
  properties: { vehicleType, reason: reasonSchema },
} as const;

export const transferRequestBody = {
  type: "object",
  properties: {
    directions: {
      type: "array",
      items: direction,
      minItems: 1,
      uniqueItems: true,
      description: "Both when absent; HOTEL_TO_AIRPORT needs the case's next flight",
    },
    groupIds: {
      type: "array",
      items: { type: "string", minLength: 1, maxLength: 200 },
      minItems: 1,
      maxItems: 2000,
      uniqueItems: true,
      description: "Every group of the case when absent",
    },
  },
} as const;

export const segmentSchema = {
  type: "object",
  required: [
    "urn",
    "caseUrn",
    "groupId",
    "reservationUrn",
    "direction",
    "scheduledAt",
    "vehicleType",
    "specialRequirements",
    "passengers",
    "pickupLocation",
    "dropoffLocation",
    "status",
    "ride",
    "providerError",
    "cancellation",
    "version",
  ],
  properties: {
    urn: urnOf("transport-segment"),
    caseUrn: urnOf("case"),
    groupId: { type: "string" },
    reservationUrn: urnSchema,
    direction,
    scheduledAt: { ...timestampSchema, description: "Pickup time" },
    vehicleType,
    specialRequirements,
    passengers: { type: "integer", minimum: 1 },
    pickupLocation: { type: "string" },
    dropoffLocation: { type: "string" },
    status: {
      type: "string",
      enum: SEGMENT_STATUSES,
      description:
        "PENDING (not confirmed yet, or the provider was out of reach: ask again), BOOKED, COMPLETED, " +
        "DECLINED (the provider refused: `providerError`), CANCELLED",
    },
    ride: {
      type: ["object", "null"],
      description: "What the ride provider confirmed and reported since; null until BOOKED",
      required: ["provider", "rideId", "poolId", "vehicle", "driver", "dispatcherPhone", "etaAt", "quote"],
      properties: {
        provider: { type: "string" },
        rideId: { type: "string" },
        poolId: { ...nullableString, description: "A shuttle run shared with other groups of the case" },
        vehicle: nullableString,
        driver: nullableString,
        dispatcherPhone: nullableString,
        etaAt: { type: ["string", "null"], format: "date-time" },
        quote: { oneOf: [moneySchema, { type: "null" }], description: "The group's share of the fare" },
      },
    },
    providerError: { ...nullableString, description: "The provider's code: why DECLINED, or still PENDING" },
    cancellation: {
      type: ["object", "null"],
      required: ["by", "reason", "at"],
      properties: { by: urnSchema, reason: { type: "string" }, at: timestampSchema },
    },
    generation: { type: "integer", description: "Bumped each time the leg is asked for again" },
    version: { type: "integer" },
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  },
} as const;

export const transferOutcomeSchema = {
  type: "object",
  required: ["caseUrn", "segments", "skipped", "ridesRequested"],
  properties: {
    caseUrn: urnOf("case"),
    segments: { type: "array", items: segmentSchema },
    skipped: {
      type: "array",
      description: "Legs not asked for: the group holds no reservation, or the case has no next flight",
      items: {
        type: "object",
        required: ["groupId", "direction", "reason"],
        properties: {
          groupId: { type: "string" },
          direction,
          reason: { type: "string", enum: ["no-reservation", "no-next-flight"] },
        },
      },
    },
    ridesRequested: {
      type: "integer",
      description: "Rides asked of the provider; a shuttle run counts once",
    },
  },
} as const;

export const rideCallbackBody = {
  type: "object",
  required: ["eventId", "rideId", "type", "occurredAt"],
  properties: {
    eventId: { type: "string", minLength: 1, maxLength: 200 },
    rideId: { type: "string", minLength: 1, maxLength: 200 },
    reference: { type: "string", maxLength: 200 },
    type: { type: "string", enum: RIDE_CALLBACK_TYPES },
    occurredAt: timestampSchema,
    etaAt: timestampSchema,
    vehicle: { type: "string", maxLength: 200 },
    driver: { type: "string", maxLength: 200 },
    code: { type: "string", maxLength: 100 },
  },
} as const;
