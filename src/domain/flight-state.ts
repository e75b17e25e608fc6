import type { Flight } from "./case.js";

/**
 * One message of the flight-state source (spec 6.3: "consumed as a continuous stream; results drive
 * disruption.detected"). The spec shows no body, so this is the product's own shape: what the
 * predictor reads (src/domain/disruption-prediction.ts) and the flight a case would be opened for.
 */

/** Operational status of a flight as the source reports it. */
export const FLIGHT_STATUSES = [
  "SCHEDULED",
  "DELAYED",
  "BOARDING",
  "DEPARTED",
  "ARRIVED",
  "DIVERTED",
  "CANCELLED",
] as const;
export type FlightStatus = (typeof FLIGHT_STATUSES)[number];

/**
 * Air-traffic-control measures at the origin: a ground stop holds every departure, a ground delay
 * programme meters them, a flow restriction slows them, staffing shortages cut capacity.
 */
export const ATC_CODES = ["GROUND_STOP", "GROUND_DELAY_PROGRAM", "FLOW_RESTRICTION", "STAFFING"] as const;
export type AtcCode = (typeof ATC_CODES)[number];

export interface FlightState {
  /** The source's id of this message: the same id delivered twice is processed once. */
  messageId: string;
  /** The airline (tenant) URN, e.g. urn:airline:ZX. */
  airline: string;
  observedAt: string;
  flight: Required<Pick<Flight, "number" | "origin" | "destination" | "scheduledDeparture">> & {
    status: FlightStatus;
  };
  /** Expected departure delay against the schedule. */
  delayMinutes: number;
  /** METAR present-weather groups at the origin, e.g. TS, +SN, FZRA, FG. */
  weatherCodes: string[];
  atcCodes: AtcCode[];
  /** How this flight number fared lately; absent when the source has no history. */
  history?: { flights: number; disrupted: number };
}

const airportCode = { type: "string", pattern: "^[A-Z]{3}$" } as const;
const timestamp = { type: "string", format: "date-time" } as const;

/** JSON Schema (2020-12) of a flight-state message, checked before anything reads it. */
export const flightStateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["messageId", "airline", "observedAt", "flight", "delayMinutes"],
  properties: {
    messageId: { type: "string", minLength: 1, maxLength: 200 },
    airline: { type: "string", pattern: "^urn:airline:[A-Z0-9]{2,3}$" },
    observedAt: timestamp,
    flight: {
      type: "object",
      additionalProperties: false,
      required: ["number", "origin", "destination", "scheduledDeparture", "status"],
      properties: {
        number: { type: "string", pattern: "^[A-Z0-9]{2,3}[0-9]{1,4}[A-Z]?$" },
        origin: airportCode,
        destination: airportCode,
        scheduledDeparture: timestamp,
        status: { type: "string", enum: FLIGHT_STATUSES },
      },
    },
    delayMinutes: { type: "integer", minimum: 0, maximum: 10_080 },
    weatherCodes: {
      type: "array",
      maxItems: 20,
      items: { type: "string", pattern: "^[+-]?(VC)?[A-Z]{2,8}$" },
      default: [],
    },
    atcCodes: {
      type: "array",
      maxItems: 10,
      uniqueItems: true,
      items: { type: "string", enum: ATC_CODES },
      default: [],
    },
    history: {
      type: "object",
      additionalProperties: false,
      required: ["flights", "disrupted"],
      properties: {
        flights: { type: "integer", minimum: 0 },
        disrupted: { type: "integer", minimum: 0 },
      },
    },
  },
} as const;
