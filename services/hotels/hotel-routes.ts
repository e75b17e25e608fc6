import { operators, supervisors } from "../../src/http/access.js";
import { hotelsOfWave } from "../../src/app/allocation/wave-reads.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import { airportCodeSchema, urnOf } from "../../src/http/schemas/common.js";
import type { AllocationUseCases } from "./allocation-use-cases.js";
import {
  airportSchema,
  cacheInvalidationSchema,
  caseHotelsSchema,
  catalogPageSchema,
  hotelSearchBody,
  hotelSearchResultSchema,
} from "./hotel-schemas.js";

const tags = ["Hotels"] as const;

/** The hotel routes of spec 4.1 and the cache invalidation of 4.2. */
export function hotelRoutes(allocation: AllocationUseCases) {
  return [
    defineRoute({
      method: "POST",
      path: "/v1/hotels/search",
      operationId: "searchHotels",
      summary: "Search every inventory vendor at once (2 s time-box)",
      description:
        "Asks every vendor the airline enabled at the same time and answers after at most 2 seconds with what " +
        "arrived, de-duplicated (provider id, then within 100 m with the same stars, then name and address), " +
        "naming the vendors that did not answer. Answers are cached per airport, dates and rooms until " +
        "POST /hotels/cache/invalidate. The airport must be one of the airline's (422) and, for an " +
        "airport-scoped operator, its own (403).",
      tags,
      access: operators,
      body: hotelSearchBody,
      idempotent: false,
      responses: { 200: { description: "Hotels and vendor coverage", schema: hotelSearchResultSchema } },
      handler: async ({ principal, body }) => ({
        status: 200,
        body: await allocation.hotels.search(principal, body),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/hotels/list",
      operationId: "listHotels",
      summary: "Curated hotel catalog around the airline's airports, nearest first",
      tags,
      access: operators,
      query: pageQuery({ airport: airportCodeSchema }),
      responses: { 200: { description: "A page of catalog hotels", schema: catalogPageSchema } },
      handler: ({ principal, query }) =>
        pageAnswer(
          query,
          (request) => allocation.hotels.list(principal, query.airport, request),
          ({ _id, ...hotel }) => hotel,
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/airports/search",
      operationId: "searchAirports",
      summary: "The airline's airports with coordinates, by code, name, city or country",
      tags,
      access: operators,
      query: {
        type: "object",
        properties: {
          q: { type: "string", minLength: 1, maxLength: 100, description: "Omit for every airport" },
        },
      },
      responses: {
        200: {
          description: "Matching airports",
          schema: {
            type: "object",
            required: ["items"],
            properties: { items: { type: "array", items: airportSchema } },
          },
        },
      },
      handler: async ({ principal, query }) => ({
        status: 200,
        body: { items: await allocation.hotels.airports(principal, query.q) },
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/hotels/cases/:caseUrn",
      operationId: "getCaseHotels",
      summary: "Hotels assigned to a case by its latest allocation wave",
      tags,
      access: operators,
      params: { type: "object", properties: { caseUrn: urnOf("case") } },
      responses: {
        200: { description: "The case's hotels and the groups each houses", schema: caseHotelsSchema },
      },
      handler: async ({ principal, params }) => {
        const { caseUrn, wave } = await allocation.reads.hotelsOfCase(principal, params.caseUrn);
        return { status: 200, body: { caseUrn, waveUrn: wave?.urn ?? null, hotels: hotelsOfWave(wave) } };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/hotels/cache/invalidate",
      operationId: "invalidateHotelCache",
      summary: "Force the next search at an airport to ask the vendors again",
      tags,
      access: supervisors,
      query: { type: "object", required: ["airport"], properties: { airport: airportCodeSchema } },
      responses: {
        200: { description: "How many cached answers were dropped", schema: cacheInvalidationSchema },
      },
      handler: async ({ principal, query }) => ({
        status: 200,
        body: await allocation.hotels.invalidate(principal, query.airport),
      }),
    }),
  ];
}
