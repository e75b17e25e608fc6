import { AMENITIES } from "../../src/domain/policy/policy.js";
import { TIERS } from "../../src/domain/policy/tiers.js";
import {
  airportCodeSchema,
  localDateSchema,
  moneySchema,
  pageSchema,
  timestampSchema,
  urnOf,
} from "../../src/http/schemas/common.js";

/** Wire schemas of the hotel routes (spec 4.1 hotels, 4.2 cache invalidation). */

const amenities = { type: "array", items: { type: "string", enum: AMENITIES } } as const;
const stars = {
  type: ["integer", "null"],
  minimum: 1,
  maximum: 5,
  description: "Null for an unrated hotel",
} as const;

export const hotelSearchBody = {
  type: "object",
  required: ["airport", "checkIn", "checkOut", "rooms"],
  properties: {
    airport: { ...airportCodeSchema, description: "One of the airline's airports" },
    checkIn: localDateSchema,
    checkOut: {
      ...localDateSchema,
      description: "YYYY-MM-DD, after checkIn: the morning after the last night",
    },
    rooms: { type: "integer", minimum: 1, maximum: 1000, description: "Rooms needed in one hotel" },
    tier: {
      type: "string",
      enum: TIERS,
      description: "Echoed back; vendors are not told it (the tier selects the policy that gates the hotels)",
    },
  },
} as const;

/** A hotel of the curated catalog (GET /v1/hotels/list). */
export const catalogHotelSchema = {
  type: "object",
  required: ["hotelUrn", "airport", "name", "address", "lat", "lon", "stars", "distanceKm"],
  properties: {
    hotelUrn: urnOf("hotel"),
    airport: airportCodeSchema,
    name: { type: "string" },
    address: { type: "string" },
    lat: { type: "number" },
    lon: { type: "number" },
    stars,
    chainId: { type: ["string", "null"] },
    amenities,
    distanceKm: { type: "number" },
    vendors: { type: "array", items: { type: "string" } },
  },
} as const;

/** What describes a hotel wherever one is shown: the catalog's fields but its airport and vendors. */
const { airport: _airport, vendors: _vendors, ...hotelDescription } = catalogHotelSchema.properties;

const offerSchema = {
  type: "object",
  required: ["provider", "providerHotelId", "providerOfferId", "nightlyRate", "roomsAvailable", "payments"],
  properties: {
    provider: { type: "string" },
    providerHotelId: { type: "string" },
    providerOfferId: { type: "string" },
    nightlyRate: { ...moneySchema, description: "One room for one night, in the vendor's currency" },
    roomsAvailable: { type: "integer", minimum: 0 },
    payments: { type: "array", items: { type: "string", enum: ["GUARANTEE", "CARD"] } },
    amenities,
  },
} as const;

const searchedHotelSchema = {
  type: "object",
  required: ["hotelUrn", "name", "address", "lat", "lon", "stars", "distanceKm", "offers"],
  properties: {
    ...hotelDescription,
    amenities: { ...amenities, description: "Normalized tags any vendor lists for the hotel" },
    distanceKm: { type: "number", description: "Great-circle distance from the airport" },
    offers: {
      type: "array",
      items: offerSchema,
      description: "Every vendor's offer for this hotel, cheapest first",
    },
  },
} as const;

export const hotelSearchResultSchema = {
  type: "object",
  required: ["airport", "checkIn", "checkOut", "rooms", "hotels", "vendorsAnswered", "vendorsMissing"],
  properties: {
    airport: airportCodeSchema,
    checkIn: localDateSchema,
    checkOut: localDateSchema,
    rooms: { type: "integer" },
    tier: { type: ["string", "null"] },
    hotels: {
      type: "array",
      items: searchedHotelSchema,
      description:
        "De-duplicated across vendors: provider id, then 100 m with the same stars, then name and address",
    },
    vendorsAnswered: { type: "array", items: { type: "string" } },
    vendorsMissing: {
      type: "array",
      description:
        "Vendors that did not answer within the 2 s time-box, failed, or are behind an open circuit",
      items: {
        type: "object",
        required: ["vendor", "reason"],
        properties: {
          vendor: { type: "string" },
          reason: { type: "string", enum: ["timeout", "error", "circuit-open"] },
          vendorErrorCode: { type: "string" },
        },
      },
    },
    searchedAt: timestampSchema,
    fromCache: { type: "boolean" },
  },
} as const;

export const catalogPageSchema = pageSchema(catalogHotelSchema);

export const airportSchema = {
  type: "object",
  required: ["code", "name", "city", "country", "lat", "lon"],
  properties: {
    code: airportCodeSchema,
    name: { type: "string" },
    city: { type: "string" },
    country: { type: "string", description: "ISO 3166-1 alpha-2" },
    lat: { type: "number" },
    lon: { type: "number" },
  },
} as const;

export const caseHotelsSchema = {
  type: "object",
  required: ["caseUrn", "waveUrn", "hotels"],
  properties: {
    caseUrn: urnOf("case"),
    waveUrn: {
      type: ["string", "null"],
      description: "The latest wave of the case; null before any wave ran",
    },
    hotels: {
      type: "array",
      items: {
        type: "object",
        required: ["hotelUrn", "name", "address", "rooms", "groups"],
        properties: {
          ...hotelDescription,
          rooms: { type: "integer", description: "Rooms the wave assigned there, all groups together" },
          groups: {
            type: "array",
            items: {
              type: "object",
              required: [
                "groupId",
                "rooms",
                "nights",
                "checkIn",
                "checkOut",
                "vendor",
                "providerOfferId",
                "cost",
              ],
              properties: {
                groupId: { type: "string" },
                rooms: { type: "integer" },
                nights: { type: "integer" },
                checkIn: localDateSchema,
                checkOut: localDateSchema,
                vendor: { type: "string" },
                providerOfferId: { type: "string" },
                cost: moneySchema,
                isDirectContract: { type: "boolean" },
              },
            },
          },
        },
      },
    },
  },
} as const;

export const cacheInvalidationSchema = {
  type: "object",
  required: ["airport", "dropped"],
  properties: {
    airport: airportCodeSchema,
    dropped: { type: "integer", minimum: 0, description: "Cached answers dropped" },
  },
} as const;
