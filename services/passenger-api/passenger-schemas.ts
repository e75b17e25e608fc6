import { PROBLEM_TEXT_MAX_LENGTH } from "../../src/app/passengers/passenger-problem.js";
import { RESERVATION_STATUSES } from "../../src/domain/reservation.js";
import { SUB_CASE_STATUSES } from "../../src/domain/sub-case.js";
import {
  localDateSchema,
  reasonSchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";
import { VEHICLE_TYPES } from "../../src/domain/transport/transport-segment.js";
import { transportLegSchema } from "../booking/booking-schemas.js";
import { entitlementsSchema } from "../../src/http/schemas/entitlements.js";

const nullableString = { type: ["string", "null"] } as const;
const nullableTimestamp = { type: ["string", "null"], format: "date-time" } as const;

const answerSchema = {
  type: ["object", "null"],
  description: "The passenger's answer to the offer; null until answered",
  required: ["kind", "at", "reason"],
  properties: {
    kind: { type: "string", enum: ["ACCEPTED", "DECLINED"] },
    at: timestampSchema,
    reason: { ...nullableString, description: "Why the passenger declined" },
  },
} as const;

const offeredStaySchema = {
  type: ["object", "null"],
  description: "What the saga offers: null until the sub-case carries an offer (see the operation)",
  required: [
    "reservationUrn",
    "reservationStatus",
    "hotel",
    "checkIn",
    "checkOut",
    "nights",
    "rooms",
    "voucher",
    "transport",
    "walletCardUrl",
  ],
  properties: {
    reservationUrn: urnSchema,
    reservationStatus: { type: "string", enum: RESERVATION_STATUSES },
    hotel: {
      type: "object",
      required: ["hotelUrn", "name", "address", "coordinates"],
      properties: {
        hotelUrn: urnOf("hotel"),
        name: { type: "string" },
        address: { type: "string" },
        coordinates: {
          type: ["object", "null"],
          description: "WGS 84; null when the hotel catalog does not know the hotel",
          required: ["lat", "lon"],
          properties: { lat: { type: "number" }, lon: { type: "number" } },
        },
      },
    },
    checkIn: localDateSchema,
    checkOut: localDateSchema,
    nights: { type: "integer" },
    rooms: { type: "integer" },
    voucher: {
      type: "object",
      required: ["voucherUrn", "validity", "verificationCode", "qrCode", "printableUrl"],
      properties: {
        voucherUrn: urnOf("voucher"),
        validity: { type: "string", enum: ["VALID", "VOID"] },
        verificationCode: { type: "string", description: "Printed beside the QR code for a check by hand" },
        qrCode: {
          type: "string",
          description: "The QR code the hotel scans, as an SVG data URI (`data:image/svg+xml;base64,...`)",
        },
        printableUrl: { type: "string", description: "The printable voucher, `GET /v1/me/voucher`" },
      },
    },
    transport: {
      type: "array",
      items: transportLegSchema,
      description: "The booked ground-transport legs to and from this hotel; empty while none is booked",
    },
    walletCardUrl: {
      ...nullableString,
      description:
        "Where the group's meal card is read (`/v1/me/wallet`); null while the group holds no loaded card",
    },
  },
} as const;

export const passengerOfferSchema = {
  type: "object",
  required: ["caseUrn", "subCaseUrn", "groupId", "status", "answer", "answerBy", "offer", "entitlements"],
  properties: {
    caseUrn: urnOf("case"),
    subCaseUrn: urnOf("sub-case"),
    groupId: { type: "string" },
    status: {
      type: "string",
      enum: SUB_CASE_STATUSES,
      description:
        "The offer's state, the group's sub-case status: OPEN or PROCESSING (no offer yet), OFFER_READY " +
        "(waiting for the answer), RESOLVED (accepted), DECLINED, FAILED, COMPENSATION_FAILED",
    },
    answer: answerSchema,
    answerBy: { ...nullableTimestamp, description: "The deadline to answer by, when the offer has one" },
    offer: offeredStaySchema,
    entitlements: {
      ...entitlementsSchema,
      description:
        "What the group is owed: the care of each passenger-rights regime covering the flight, and the group's " +
        "meal allowance (groups[0].amount: the amount of its meal card)",
    },
    drill: {
      type: "boolean",
      description: "True when the case is a drill (spec 4.2): a rehearsal, no room is held for the passenger",
    },
  },
} as const;

export const declineBody = {
  type: "object",
  required: ["reason"],
  properties: { reason: { ...reasonSchema, description: "Why the offer does not suit the passenger" } },
} as const;

export const passengerTransportSchema = {
  type: "object",
  required: ["status", "legs", "onDemand"],
  properties: {
    status: {
      type: "string",
      enum: ["NONE", "PENDING", "BOOKED", "DECLINED"],
      description:
        "PENDING while a leg waits for the ride provider, else BOOKED, else DECLINED; NONE: no leg stands",
    },
    legs: {
      type: "array",
      items: {
        ...transportLegSchema,
        required: [...transportLegSchema.required, "segmentUrn", "status", "vehicleType", "etaAt"],
        properties: {
          ...transportLegSchema.properties,
          segmentUrn: urnOf("transport-segment"),
          status: { type: "string", enum: ["PENDING", "BOOKED", "DECLINED"] },
          vehicleType: { type: "string", enum: VEHICLE_TYPES },
          etaAt: { ...nullableTimestamp, description: "When the vehicle is expected at the pickup point" },
        },
      },
    },
    onDemand: {
      type: "object",
      required: ["allowed", "reason"],
      description: "Whether `POST /v1/me/transport/request` is open to this passenger, and why",
      properties: { allowed: { type: "boolean" }, reason: { type: "string" } },
    },
  },
} as const;

const walletCardSchema = {
  type: ["object", "null"],
  description: "The group's virtual meal card, its latest; null while none is issued",
  required: ["cardUrn", "status", "currency", "balance", "available", "transactions"],
  properties: {
    cardUrn: urnSchema,
    status: { type: "string", description: "LOADED, or CANCELLED (for good)" },
    currency: { type: "string", description: "ISO 4217" },
    balance: { type: "integer", description: "Minor units" },
    available: { type: "integer", description: "Minor units: the balance less what is held" },
    transactions: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "amount", "merchant", "occurredAt"],
        properties: {
          type: { type: "string", description: "AUTHORIZATION, CAPTURE, REVERSAL, HOLD_RELEASED" },
          amount: {
            type: "object",
            required: ["value", "currency"],
            properties: { value: { type: "integer" }, currency: { type: "string" } },
          },
          merchant: nullableString,
          occurredAt: timestampSchema,
        },
      },
    },
  },
} as const;

export const passengerWalletSchema = {
  type: "object",
  required: ["card"],
  properties: { card: walletCardSchema },
} as const;

export const walletRevealSchema = {
  type: "object",
  required: ["url", "expiresAt"],
  properties: {
    url: { type: "string", description: "The card issuer's hosted page that shows the card number" },
    expiresAt: timestampSchema,
  },
} as const;

export const checkInSchema = {
  type: "object",
  required: ["reservationUrn", "status", "checkedIn"],
  properties: {
    reservationUrn: urnSchema,
    status: { type: "string", enum: ["CHECKED_IN"] },
    checkedIn: { type: "boolean", description: "False when the group had already checked in" },
  },
} as const;

export const problemBody = {
  type: "object",
  required: ["text"],
  properties: {
    text: {
      type: "string",
      minLength: 1,
      maxLength: PROBLEM_TEXT_MAX_LENGTH,
      description:
        `What went wrong, in the passenger's words: at most ${PROBLEM_TEXT_MAX_LENGTH} characters. Kept as ` +
        "written (control characters removed); never interpreted as markup",
    },
  },
} as const;

export const reportedProblemSchema = {
  type: "object",
  required: ["reviewItemUrn", "state", "createdAt"],
  properties: {
    reviewItemUrn: urnOf("review-item"),
    state: { type: "string" },
    createdAt: timestampSchema,
  },
} as const;
