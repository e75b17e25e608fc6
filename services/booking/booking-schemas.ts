import { RESERVATION_STATUSES } from "../../src/domain/reservation.js";
import {
  localDateSchema,
  pageSchema,
  reasonSchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";
import {
  costSchema,
  reservationSchema,
  reservationUrnDescription,
} from "../../src/http/schemas/reservation.js";

export const reservationUrnParams = {
  type: "object",
  properties: { reservationUrn: { ...urnOf("reservation"), description: reservationUrnDescription } },
} as const;

export const reservationPageSchema = pageSchema(reservationSchema);

export const bookRoomsAcceptedSchema = {
  type: "object",
  required: ["caseUrn", "waveUrn", "status", "groups", "bookings", "correlationUrn"],
  properties: {
    caseUrn: urnSchema,
    waveUrn: urnSchema,
    status: { type: "string", enum: ["ACCEPTED"] },
    groups: { type: "integer", description: "Groups the wave allocated" },
    bookings: {
      type: "object",
      description: "Where the wave's groups stood when the request was accepted",
      properties: {
        BOOKING: { type: "integer" },
        PENDING: { type: "integer" },
        BOOKED: { type: "integer" },
        FAILED: { type: "integer" },
      },
    },
    correlationUrn: { type: "string" },
  },
} as const;

export const manualReservationBody = {
  type: "object",
  required: [
    "caseUrn",
    "groupId",
    "hotel",
    "confirmationNumber",
    "checkIn",
    "checkOut",
    "rooms",
    "cost",
    "reason",
  ],
  properties: {
    caseUrn: urnOf("case"),
    groupId: { type: "string", minLength: 1, maxLength: 100 },
    hotel: {
      type: "object",
      required: ["name", "address"],
      properties: {
        name: { type: "string", minLength: 1, maxLength: 200 },
        address: { type: "string", minLength: 1, maxLength: 500 },
        hotelUrn: { ...urnOf("hotel"), description: "The catalog hotel, when it is one" },
      },
    },
    confirmationNumber: { type: "string", minLength: 1, maxLength: 100 },
    checkIn: localDateSchema,
    checkOut: localDateSchema,
    rooms: { type: "integer", minimum: 1, maximum: 500 },
    cost: costSchema,
    reason: reasonSchema,
  },
} as const;

const partnerHotelSchema = {
  type: "object",
  required: ["name", "address"],
  properties: { hotelUrn: urnSchema, name: { type: "string" }, address: { type: "string" } },
} as const;

const namedPassengerSchema = {
  type: "object",
  required: ["passengerUrn", "name"],
  properties: { passengerUrn: urnOf("passenger"), name: { type: "string" } },
} as const;

/** A booking as a partner reads it: the stay and its state, no payment, cost or contact details. */
export const partnerBookingSchema = {
  type: "object",
  required: [
    "urn",
    "caseUrn",
    "groupId",
    "status",
    "confirmationNumber",
    "hotel",
    "checkIn",
    "checkOut",
    "rooms",
  ],
  properties: {
    urn: { ...urnSchema, description: reservationUrnDescription },
    caseUrn: urnSchema,
    groupId: { type: "string" },
    status: { type: "string", enum: RESERVATION_STATUSES },
    vendor: { type: "string" },
    confirmationNumber: { type: "string" },
    hotel: partnerHotelSchema,
    checkIn: localDateSchema,
    checkOut: localDateSchema,
    rooms: { type: "integer" },
    guests: { type: "array", items: namedPassengerSchema },
    voucherUrn: urnOf("voucher"),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  },
} as const;

/** A ground-transport leg as the voucher prints it (src/domain/voucher.ts `VoucherTransport`). */
export const transportLegSchema = {
  type: "object",
  required: ["direction", "pickupLocation", "pickupTime"],
  properties: {
    direction: { type: "string", enum: ["AIRPORT_TO_HOTEL", "HOTEL_TO_AIRPORT"] },
    pickupLocation: { type: "string" },
    pickupTime: timestampSchema,
    vehicle: { type: ["string", "null"] },
    dispatcherPhone: { type: ["string", "null"] },
  },
} as const;

/** A voucher as the passenger received it, without the verification code. */
export const partnerVoucherSchema = {
  type: "object",
  required: ["voucherUrn", "reservationUrn", "validity", "hotel", "checkIn", "checkOut", "passengers"],
  properties: {
    voucherUrn: urnOf("voucher"),
    reservationUrn: urnSchema,
    caseUrn: urnSchema,
    groupId: { type: "string" },
    validity: { type: "string", enum: ["VALID", "VOID"] },
    version: { type: "integer" },
    issuedAt: timestampSchema,
    amendedAt: { type: ["string", "null"] },
    hotel: partnerHotelSchema,
    checkIn: localDateSchema,
    checkOut: localDateSchema,
    nights: { type: "integer" },
    rooms: { type: "integer" },
    passengers: { type: "array", items: namedPassengerSchema },
    confirmationNumber: { type: "string" },
    transport: { type: "array", items: transportLegSchema },
  },
} as const;

export const partnerVoucherPageSchema = pageSchema(partnerVoucherSchema);
