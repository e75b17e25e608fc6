/**
 * JSON Schemas of the case routes (spec 2.1, 2.5, 4.1–4.3), written once: they validate requests,
 * document the API and type the handlers.
 */
import { CASE_PRIORITIES } from "../../src/domain/case.js";
import { MANIFEST_COLUMNS } from "../../src/domain/manifest-spreadsheet.js";
import { TIERS } from "../../src/domain/policy/tiers.js";
import { pageQuery } from "../../src/http/pagination.js";
import {
  airportCodeSchema,
  pageSchema,
  partialFailureSchema,
  reasonSchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";
import { entitlementsSchema } from "../../src/http/schemas/entitlements.js";
import { identifierSchema } from "../../src/http/schemas/passenger-groups.js";
import { caseReservationSchema } from "../../src/http/schemas/reservation.js";

const flightNumber = {
  type: "string",
  pattern: "^[A-Z0-9]{2,3}[0-9]{1,4}[A-Z]?$",
  description: "e.g. ZX100",
} as const;
const pnr = {
  type: "string",
  pattern: "^[A-Za-z0-9]{5,8}$",
  description: "Booking reference (PNR)",
} as const;
const name = { type: "string", minLength: 1, maxLength: 100 } as const;
const code = { type: "string", pattern: "^[A-Za-z0-9_ -]{1,30}$" } as const;

const contactSchema = {
  type: "object",
  properties: {
    email: { type: "string", format: "email", maxLength: 254 },
    phone: { type: "string", pattern: "^\\+?[0-9][0-9 ().-]{5,24}$" },
    language: { type: "string", pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$" },
  },
} as const;

export const flightSchema = {
  type: "object",
  required: ["number", "origin", "destination", "scheduledDeparture"],
  properties: {
    number: flightNumber,
    origin: airportCodeSchema,
    destination: airportCodeSchema,
    scheduledDeparture: timestampSchema,
    status: { type: "string", maxLength: 40, description: "e.g. CANCELLED" },
  },
} as const;

export const nextFlightSchema = {
  type: "object",
  required: ["number", "scheduledDeparture"],
  properties: { number: flightNumber, scheduledDeparture: timestampSchema },
} as const;

const passengerSchema = {
  type: "object",
  required: ["id", "lastName"],
  properties: {
    id: identifierSchema,
    firstName: name,
    lastName: name,
    tier: { type: "string", enum: TIERS },
    cabinClass: code,
    loyaltyTier: code,
    contact: contactSchema,
    specialRequirements: {
      type: "array",
      maxItems: 20,
      items: { type: "string", minLength: 1, maxLength: 100 },
      description: "Needs on the ground, e.g. WCHR (wheelchair): ground transport sends a wheelchair van",
    },
  },
} as const;

const passengerGroupSchema = {
  type: "object",
  required: ["id", "passengers"],
  properties: {
    id: identifierSchema,
    pnr,
    passengers: { type: "array", minItems: 1, maxItems: 500, items: passengerSchema },
  },
} as const;

/** Spec 2.1: the manual declaration (POST /v1/cases, POST /cases). */
export const caseDeclarationBody = {
  type: "object",
  required: ["externalEventId", "flight"],
  properties: {
    externalEventId: {
      type: "string",
      minLength: 1,
      maxLength: 200,
      description: "Idempotency key of the disruption, per airline",
    },
    flight: flightSchema,
    nextFlight: nextFlightSchema,
    passengerGroups: {
      type: "array",
      maxItems: 2000,
      items: passengerGroupSchema,
      description: "May be empty: passengers can be uploaded later (POST /cases/{urn}/passengers:bulk)",
    },
  },
} as const;

const pushedPassengerSchema = {
  type: "object",
  required: ["pnr", "lastName"],
  properties: {
    pnr,
    lastName: name,
    firstName: name,
    cabinClass: code,
    loyaltyTier: code,
    contact: contactSchema,
  },
} as const;

const pushedNextFlight = {
  type: "object",
  required: ["iataDesignator", "scheduledDeparture"],
  properties: { iataDesignator: flightNumber, scheduledDeparture: timestampSchema },
} as const;

/** Spec 4.3: the disruption push. */
export const disruptionPushBody = {
  type: "object",
  required: ["externalEventId", "airlineUrn", "flight", "disruption", "passengers"],
  properties: {
    externalEventId: { type: "string", minLength: 1, maxLength: 200 },
    airlineUrn: urnOf("airline"),
    flight: {
      type: "object",
      required: ["iataDesignator", "originAirport", "destinationAirport", "scheduledDeparture"],
      properties: {
        iataDesignator: flightNumber,
        originAirport: airportCodeSchema,
        destinationAirport: airportCodeSchema,
        scheduledDeparture: timestampSchema,
      },
    },
    disruption: {
      type: "object",
      required: ["type", "reason", "decidedAt"],
      properties: {
        type: { type: "string", minLength: 1, maxLength: 40, description: "e.g. CANCELLED" },
        reason: { type: "string", minLength: 1, maxLength: 40, description: "e.g. WEATHER" },
        decidedAt: timestampSchema,
      },
    },
    passengers: { type: "array", maxItems: 2000, items: pushedPassengerSchema },
    nextFlight: pushedNextFlight,
  },
} as const;

export const disruptionAcceptedSchema = {
  type: "object",
  required: ["caseUrn", "status", "subCaseCount", "correlationUrn"],
  properties: {
    caseUrn: urnOf("case"),
    status: { type: "string", description: "e.g. OPEN" },
    subCaseCount: { type: "integer", minimum: 0, description: "One sub-case per passenger group" },
    correlationUrn: { type: "string", description: "Trace of the request that opened the case" },
  },
} as const;

/**
 * The partner amendment (PATCH /partner/v1/cases/{urn}/manifest): passengers added (or corrected,
 * when sent with the id of one already on the case) and the next flight corrected.
 */
export const manifestAmendmentBody = {
  type: "object",
  properties: {
    addedPassengers: {
      type: "array",
      maxItems: 2000,
      items: {
        ...pushedPassengerSchema,
        properties: { ...pushedPassengerSchema.properties, id: identifierSchema },
      },
    },
    nextFlight: pushedNextFlight,
    reason: reasonSchema,
  },
} as const;

export const regroupBody = {
  type: "object",
  required: ["groups", "reason"],
  properties: {
    groups: {
      type: "array",
      minItems: 1,
      maxItems: 2000,
      description: "The new grouping: every passenger of the case exactly once",
      items: {
        type: "object",
        required: ["id", "passengerIds"],
        properties: {
          id: identifierSchema,
          passengerIds: { type: "array", minItems: 1, maxItems: 500, items: identifierSchema },
          pnr,
        },
      },
    },
    reason: reasonSchema,
  },
} as const;

export const mergeBody = {
  type: "object",
  required: ["groupIds", "reason"],
  properties: {
    groupIds: { type: "array", minItems: 2, maxItems: 100, items: identifierSchema },
    reason: reasonSchema,
  },
} as const;

export const optionalReasonBody = { type: "object", properties: { reason: reasonSchema } } as const;

export const reaccommodateBody = {
  type: "object",
  required: ["nextFlight"],
  properties: {
    nextFlight: nextFlightSchema,
    utcOffsetMinutes: {
      type: "integer",
      minimum: -720,
      maximum: 840,
      default: 0,
      description: "The airport's offset from UTC during the stay, in minutes; hotel nights are local",
    },
    reason: reasonSchema,
  },
} as const;

export const uploadSchema = {
  type: "object",
  required: ["file"],
  properties: {
    file: {
      type: "string",
      format: "binary",
      description:
        "The manifest, .xlsx (first sheet) or .csv, header in row 1. Columns: " +
        MANIFEST_COLUMNS.map((c) => `${c.name}${c.required ? " (required)" : ""}: ${c.description}`).join(
          "; ",
        ),
    },
  },
} as const;

export const uploadOutcomeSchema = {
  type: "object",
  required: ["caseUrn", "accepted", "added", "updated", "errors"],
  properties: {
    caseUrn: urnOf("case"),
    accepted: { type: "integer", description: "Rows read without error" },
    added: { type: "array", items: { type: "string" }, description: "Passenger ids added" },
    updated: { type: "array", items: { type: "string" }, description: "Passenger ids corrected" },
    errors: {
      type: "array",
      description: "One entry per bad field of a left-out row (row 1 is the header)",
      items: {
        type: "object",
        required: ["row", "field", "message"],
        properties: { row: { type: "integer" }, field: { type: "string" }, message: { type: "string" } },
      },
    },
  },
} as const;

const reviewItemSchema = {
  type: "object",
  required: ["urn", "caseUrn", "category", "priority", "affectedGroups", "state"],
  properties: {
    urn: urnSchema,
    caseUrn: urnSchema,
    category: { type: "string" },
    priority: { type: "string", enum: ["HIGH", "MEDIUM", "LOW"] },
    attemptedHotels: { type: "array", items: { type: "object" } },
    affectedGroups: { type: "array", items: { type: "string" } },
    recommendations: { type: "array", items: { type: "object" } },
    state: { type: "string" },
    assignedTo: { type: ["string", "null"] },
    reason: { type: "string" },
    createdAt: timestampSchema,
  },
} as const;

const passengerViewSchema = {
  type: "object",
  required: ["urn", "id", "lastName", "groupId", "localResident"],
  properties: {
    ...passengerSchema.properties,
    tier: { type: "string" },
    urn: urnOf("passenger"),
    groupId: { type: "string" },
    pnr: { type: ["string", "null"] },
    localResident: { type: "boolean", description: "LOCAL_RESIDENT: no overnight gap before the new flight" },
  },
} as const;

/** A case's priority: NORMAL until a partner's priority request raises it one level at a time. */
export const casePrioritySchema = { type: "string", enum: CASE_PRIORITIES } as const;

/** Spec 4.2 "Run a drill": a drill case's reads say so. */
export const drillFlagSchema = {
  type: "boolean",
  description: "True for a drill: no passenger is notified, no webhook delivered, metrics leave it out",
} as const;

/** Spec 2.1: the case record. */
export const caseSchema = {
  type: "object",
  required: ["urn", "status", "passengerGroups", "wave", "reservations", "manualReviewItems"],
  properties: {
    urn: urnOf("case"),
    tenant: urnSchema,
    externalEventId: { type: "string" },
    status: { type: "string", enum: ["OPEN", "MANUAL_REVIEW", "CLOSED"] },
    flight: flightSchema,
    nextFlight: { anyOf: [nextFlightSchema, { type: "null" }] },
    openedAt: timestampSchema,
    updatedAt: timestampSchema,
    version: { type: "integer" },
    priority: casePrioritySchema,
    drill: drillFlagSchema,
    priorityRequest: {
      type: ["object", "null"],
      description:
        "The partner request that last raised the priority (POST /partner/v1/cases/{urn}/priority-request)",
      properties: {
        by: urnSchema,
        reason: { type: "string" },
        at: timestampSchema,
        from: casePrioritySchema,
        to: casePrioritySchema,
      },
    },
    statusChange: {
      type: ["object", "null"],
      description: "The last status change with its actor and reason",
      properties: {
        from: { type: "string" },
        to: { type: "string" },
        reason: { type: "string" },
        by: { type: "string" },
        at: timestampSchema,
      },
    },
    passengerGroups: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "subCaseUrn", "operationalStatus", "passengers"],
        properties: {
          id: { type: "string" },
          pnr: { type: ["string", "null"] },
          subCaseUrn: urnOf("sub-case"),
          operationalStatus: {
            type: "string",
            description: "LOCAL_RESIDENT, else the status of the group's sub-case",
          },
          origin: { type: ["object", "null"], description: "Set for groups made by a split or merge" },
          passengers: { type: "array", items: passengerViewSchema },
        },
      },
    },
    wave: {
      type: "object",
      required: ["allocations"],
      properties: { allocations: { type: "array", items: { type: "object" } } },
    },
    reservations: { type: "array", items: caseReservationSchema },
    manualReviewItems: { type: "array", items: reviewItemSchema },
    stayPlan: { type: ["object", "null"], description: "The last plan computed by reaccommodation" },
    entitlements: entitlementsSchema,
  },
} as const;

export const caseSummarySchema = {
  type: "object",
  required: ["urn", "status", "airport", "openedAt", "passengerCount", "groupCount"],
  properties: {
    urn: urnOf("case"),
    tenant: urnSchema,
    status: { type: "string" },
    priority: casePrioritySchema,
    drill: drillFlagSchema,
    airport: airportCodeSchema,
    flightNumber: { type: "string" },
    externalEventId: { type: "string" },
    openedAt: timestampSchema,
    updatedAt: timestampSchema,
    passengerCount: { type: "integer" },
    groupCount: { type: "integer" },
    version: { type: "integer" },
  },
} as const;

export const casePageSchema = pageSchema(caseSummarySchema);

export const caseListQuery = pageQuery({
  status: { type: "string", enum: ["OPEN", "MANUAL_REVIEW", "CLOSED"] },
  priority: casePrioritySchema,
  airport: airportCodeSchema,
  from: { ...timestampSchema, description: "Opened at or after" },
  to: { ...timestampSchema, description: "Opened at or before" },
});

export const manifestPageSchema = pageSchema({
  type: "object",
  required: ["subCaseUrn", "groupId", "status", "passengers"],
  properties: {
    subCaseUrn: urnOf("sub-case"),
    groupId: { type: "string" },
    pnr: { type: ["string", "null"] },
    status: { type: "string" },
    lockedBy: { type: ["string", "null"] },
    localResident: { type: "boolean" },
    passengerCount: { type: "integer" },
    passengers: { type: "array", items: passengerViewSchema },
  },
});

export const passengerPageSchema = pageSchema(passengerViewSchema);

/** POST /partner/v1/cases/{case_urn}/priority-request. */
export const priorityRequestBody = {
  type: "object",
  required: ["reason"],
  properties: {
    reason: { ...reasonSchema, description: "Why the case should be handled sooner; operators read it" },
  },
} as const;

export const priorityRequestAnswerSchema = {
  type: "object",
  required: ["caseUrn", "priority", "raised", "priorityRequest"],
  properties: {
    caseUrn: urnOf("case"),
    priority: casePrioritySchema,
    raised: { type: "boolean", description: "False when the case was already URGENT: nothing changed" },
    priorityRequest: caseSchema.properties.priorityRequest,
  },
} as const;

export const disruptionPageSchema = pageSchema({
  type: "object",
  required: ["urn", "caseUrn", "externalEventId", "receivedAt", "flight"],
  properties: {
    urn: urnOf("disruption"),
    tenant: urnSchema,
    caseUrn: urnOf("case"),
    externalEventId: { type: "string" },
    source: { type: "string", enum: ["operator", "partner"] },
    receivedBy: urnSchema,
    receivedAt: timestampSchema,
    flight: flightSchema,
    nextFlight: { anyOf: [nextFlightSchema, { type: "null" }] },
    disruption: { type: ["object", "null"] },
    passengerCount: { type: "integer" },
    groupCount: { type: "integer" },
  },
});

export const dashboardSchema = {
  type: "object",
  required: ["cases", "manualReview", "demand", "partialFailures"],
  properties: {
    airport: { type: ["string", "null"] },
    cases: {
      type: ["object", "null"],
      properties: { total: { type: "integer" }, byStatus: { type: "object" } },
    },
    manualReview: {
      type: ["object", "null"],
      properties: { open: { type: "integer" }, byCategory: { type: "object" } },
    },
    demand: { type: ["object", "null"] },
    partialFailures: {
      type: "array",
      description: "One entry per sub-call that failed or took longer than 3 s; its part is null",
      items: partialFailureSchema,
    },
  },
} as const;
