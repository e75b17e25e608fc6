/**
 * A reservation's schemas (spec 2.1 reservations[]), written once: as booking shows it to
 * operators, and as its case records it.
 */
import { RESERVATION_STATUSES } from "../../domain/reservation.js";
import { localDateSchema, moneySchema, timestampSchema, urnOf, urnSchema } from "./common.js";

/** What a stay cost: unlike money in general it is never negative. */
export const costSchema = {
  ...moneySchema,
  properties: {
    ...moneySchema.properties,
    amountMinor: { ...moneySchema.properties.amountMinor, minimum: 0 },
  },
} as const;

const attemptedHotelSchema = {
  type: "object",
  required: ["hotelUrn", "reason"],
  properties: {
    hotelUrn: urnSchema,
    reason: {
      type: "string",
      description:
        "rate-not-available, payment-refused, vendor-refused, vendor-unavailable, vendor-not-enabled, " +
        "cancelled-by-hotel, or for a direct contract contract-exhausted or contract-not-covering",
    },
    providerError: { type: "string", description: "The vendor's own error code, e.g. RATE_NOT_AVAILABLE" },
  },
} as const;

const hotelSchema = {
  type: "object",
  required: ["hotelUrn", "name", "address"],
  properties: {
    hotelUrn: urnSchema,
    name: { type: "string" },
    address: { type: "string" },
    providerHotelId: { type: ["string", "null"] },
  },
} as const;

export const reservationUrnDescription =
  "`urn:reservation:<id>:vendor:<vendor>:status:<status>`, minted when the reservation is confirmed (status " +
  "segment `confirmed`) and kept as its identifier: later statuses show in `status`, not in the URN. Reads " +
  "accept the URN with any status segment, or `urn:reservation:<id>`.";

/** A reservation as operators read it (spec 2.1 reservations[]). */
export const reservationSchema = {
  type: "object",
  required: [
    "urn",
    "caseUrn",
    "groupId",
    "status",
    "vendor",
    "confirmationNumber",
    "hotel",
    "checkIn",
    "checkOut",
    "rooms",
    "guests",
    "voucher",
  ],
  properties: {
    urn: { ...urnSchema, description: reservationUrnDescription },
    id: { type: "string" },
    tenant: urnSchema,
    caseUrn: urnSchema,
    airport: { type: "string" },
    groupId: { type: "string" },
    waveUrn: { type: ["string", "null"] },
    demandUrn: { type: ["string", "null"] },
    status: { type: "string", enum: RESERVATION_STATUSES },
    vendor: {
      type: "string",
      description: "Inventory vendor id, or `manual` for an out-of-band reservation",
    },
    vendorReservationId: { type: ["string", "null"] },
    confirmationNumber: { type: "string" },
    providerOfferId: { type: ["string", "null"] },
    hotel: hotelSchema,
    checkIn: localDateSchema,
    checkOut: localDateSchema,
    rooms: { type: "integer" },
    guests: {
      type: "array",
      items: {
        type: "object",
        required: ["passengerId", "name"],
        properties: { passengerId: { type: "string" }, name: { type: "string" } },
      },
    },
    payment: { type: "string", enum: ["GUARANTEE", "CARD", "OUT_OF_BAND"] },
    cost: { ...costSchema, description: "The whole stay, in the vendor's (or the operator's) currency" },
    allocatedCost: {
      anyOf: [costSchema, { type: "null" }],
      description:
        "The allocation's figure for the same stay in the policy's currency (what scoring compared); null " +
        "when booked elsewhere than the allocated offer, or by hand",
    },
    refundable: { type: ["boolean", "null"] },
    cancellationDeadline: { type: ["string", "null"] },
    source: { type: "string", enum: ["wave", "override", "manual-review", "manual"] },
    attemptedHotels: { type: "array", items: attemptedHotelSchema },
    voucher: {
      type: "object",
      required: ["urn", "verificationCode", "issuedAt", "version"],
      properties: {
        urn: urnOf("voucher"),
        verificationCode: { type: "string" },
        issuedAt: timestampSchema,
        version: { type: "integer" },
        amendedAt: { type: ["string", "null"] },
      },
    },
    bookedBy: { type: "string" },
    reason: { type: ["string", "null"] },
    replaces: { type: ["string", "null"] },
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    vendorUpdatedAt: { type: ["string", "null"] },
  },
} as const;

/**
 * A reservation as its case records it (spec 2.1 reservations[]): the status and stay booking last
 * reported for it.
 */
export const caseReservationSchema = {
  type: "object",
  required: ["reservationUrn", "groupId", "status"],
  properties: {
    reservationUrn: reservationSchema.properties.urn,
    groupId: reservationSchema.properties.groupId,
    /** As booking reported it; the case does not narrow it. */
    status: { type: "string" },
    checkIn: reservationSchema.properties.checkIn,
    checkOut: reservationSchema.properties.checkOut,
  },
} as const;
