import type { Hotel } from "../../domain/allocation/dedup.js";
import { DomainError } from "../../domain/domain-error.js";
import { greatCircleKm } from "../../domain/geo.js";
import { hotelFactsOf } from "../../domain/allocation/offer.js";
import type { OperatorPrincipal } from "../principals.js";
import { assertAirport } from "../authorization.js";
import type { Airport, Directory } from "../directory.js";
import type { FindOptions, Page } from "../../runtime/document-store.js";
import { HotelSearch, type HotelSearchResult } from "../hotel-search.js";
import { type CatalogHotelDocument, HotelCatalogIndex } from "./hotel-catalog.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface HotelSearchBody {
  airport: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
  tier?: string;
}

/**
 * The hotel reads of the operator API, each bounded to the caller's airline: its airports (an
 * airport it does not serve is refused with 422, another airport than an airport-scoped operator's
 * own with 403), the vendors it has enabled and the hotels around its airports.
 */
@injectable()
export class HotelQueries {
  constructor(
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(HotelSearch) private readonly hotelSearch: HotelSearch,
    @inject(HotelCatalogIndex) private readonly catalog: HotelCatalogIndex,
  ) {}

  /** POST /v1/hotels/search: every vendor at once within the time-box, de-duplicated. */
  async search(principal: OperatorPrincipal, body: HotelSearchBody) {
    const airport = await this.servedAirport(principal, body.airport);
    const result = await this.hotelSearch.searchHotels({
      tenant: principal.tenant,
      airport: airport.code,
      checkIn: body.checkIn,
      checkOut: body.checkOut,
      rooms: body.rooms,
      ...(body.tier ? { tier: body.tier } : {}),
    });
    return searchView(airport, body, result);
  }

  /** GET /v1/hotels/list: the curated catalog around the airline's airports, nearest first. */
  async list(
    principal: OperatorPrincipal,
    airport: string | undefined,
    page: FindOptions,
  ): Promise<Page<CatalogHotelDocument>> {
    const airports = airport
      ? [(await this.servedAirport(principal, airport)).code]
      : principal.airport
        ? [principal.airport]
        : (await this.airportsOf(principal.tenant)).map((a) => a.code);
    return this.catalog.page(airports, page);
  }

  /**
   * GET /v1/airports/search: the airline's airports with their coordinates, matched on code, name,
   * city or country (case and accents ignored); all of them without a query.
   */
  async airports(principal: OperatorPrincipal, query: string | undefined): Promise<Airport[]> {
    const needle = query ? folded(query) : "";
    return (await this.airportsOf(principal.tenant)).filter(
      (a) => !needle || [a.code, a.name, a.city, a.country].some((field) => folded(field).includes(needle)),
    );
  }

  /** POST /hotels/cache/invalidate: the airport's cached answers are dropped; returns how many. */
  async invalidate(
    principal: OperatorPrincipal,
    code: string,
  ): Promise<{ airport: string; dropped: number }> {
    const airport = await this.servedAirport(principal, code);
    return { airport: airport.code, dropped: this.hotelSearch.invalidate(airport.code) };
  }

  async airportsOf(tenant: string): Promise<Airport[]> {
    return (await this.directory.findOrganization(tenant))?.airports ?? [];
  }

  private async servedAirport(principal: OperatorPrincipal, code: string): Promise<Airport> {
    const airport = (await this.airportsOf(principal.tenant)).find((a) => a.code === code.toUpperCase());
    if (!airport) {
      throw new DomainError("unprocessable", "airport-not-served", `The airline does not serve ${code}`, {
        airport: code,
      });
    }
    assertAirport(principal, airport.code);
    return airport;
  }
}

function searchView(airport: Airport, body: HotelSearchBody, result: HotelSearchResult) {
  return {
    airport: airport.code,
    checkIn: body.checkIn,
    checkOut: body.checkOut,
    rooms: body.rooms,
    tier: body.tier ?? null,
    hotels: result.hotels.map((hotel) => hotelView(airport, hotel)),
    vendorsAnswered: result.vendorsAnswered,
    vendorsMissing: result.vendorsMissing,
    searchedAt: result.searchedAt,
    fromCache: result.fromCache,
  };
}

function hotelView(airport: Airport, hotel: Hotel) {
  const [first] = hotel.offers;
  return {
    hotelUrn: hotel.hotelUrn,
    ...hotelFactsOf(first!),
    amenities: [...new Set(hotel.offers.flatMap((o) => o.amenities))],
    distanceKm: Math.round(greatCircleKm(airport, first!) * 100) / 100,
    offers: hotel.offers.map((offer) => ({
      provider: offer.provider,
      providerHotelId: offer.providerHotelId,
      providerOfferId: offer.providerOfferId,
      nightlyRate: offer.nightlyRate,
      roomsAvailable: offer.roomsAvailable,
      payments: [...offer.payments],
      amenities: [...offer.amenities],
    })),
  };
}

function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}
