/**
 * Hotel search as scatter-gather (spec 4.1 POST /v1/hotels/search, 8.2): every vendor the tenant
 * enabled is asked at once; after the 2 s time-box the answer is whatever arrived, deduplicated,
 * with the vendors that did not answer named and why. Vendors that answer late are not waited for
 * (their calls finish in the background and are dropped). Answers are cached per tenant, airport,
 * dates and rooms, and searches for the same ones at once share one answer; `invalidate(airport)`
 * forces the next search to ask the vendors again.
 */
import { type Hotel, dedupOffers } from "../domain/allocation/dedup.js";
import type { HotelOffer } from "../domain/allocation/offer.js";
import { DomainError } from "../domain/domain-error.js";
import { type ExchangeRates, convert } from "../domain/money.js";
import { CircuitOpenError } from "../vendors/circuit-open-error.js";
import type { Clock, TimerHandle } from "../runtime/clock.js";
import type { HotelSearchRequest, InventoryVendor, InventoryVendors } from "../vendors/vendor-port.js";

/** Spec 8.2. */
export const HOTEL_SEARCH_TIME_BOX_MS = 2_000;

export interface HotelSearchQuery extends HotelSearchRequest {
  tenant: string;
  /**
   * The passenger tier the search is for. Vendors are not told: the tier selects the policy that
   * later gates these hotels, so the same cached answer serves every tier.
   */
  tier?: string;
}

export type MissingReason = "timeout" | "error" | "circuit-open";

export interface MissingVendor {
  vendor: string;
  reason: MissingReason;
  /** For `error`: the vendor's code, e.g. HTTP_503 or TIMEOUT. */
  vendorErrorCode?: string;
}

export interface HotelSearchResult {
  /** Deduplicated hotels, each with every vendor's offer for it, cheapest first. */
  hotels: Hotel[];
  vendorsAnswered: string[];
  vendorsMissing: MissingVendor[];
  /** ISO timestamp of the search that produced this answer (earlier than now when cached). */
  searchedAt: string;
  fromCache: boolean;
}

export interface HotelSearchOptions {
  /** Converts vendor currencies so that dedup ranks a hotel's offers by price. */
  exchangeRates: ExchangeRates;
  timeBoxMs?: number;
  /** How long a complete answer (every vendor answered) is reused. */
  cacheTtlMs?: number;
  /** How long an answer missing some vendor is reused: shorter, so the vendor gets asked again soon. */
  partialCacheTtlMs?: number;
}

interface CachedAnswer {
  airport: string;
  expiresAt: number;
  result: HotelSearchResult;
}

type VendorOutcome =
  | { vendor: string; offers: HotelOffer[] }
  | { vendor: string; missing: MissingReason; vendorErrorCode?: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const AIRPORT_CODE = /^[A-Z]{3}$/;

export class HotelSearch {
  private readonly cache = new Map<string, CachedAnswer>();
  /**
   * Searches under way, by the cache's key: a search for the same key meanwhile shares the answer
   * instead of asking every vendor again (a meltdown's waves at one airport search at once).
   */
  private readonly asking = new Map<string, { airport: string; answer: Promise<HotelSearchResult> }>();
  private readonly timeBoxMs: number;
  private readonly cacheTtlMs: number;
  private readonly partialCacheTtlMs: number;

  constructor(
    private readonly vendors: InventoryVendors,
    private readonly clock: Clock,
    private readonly options: HotelSearchOptions,
  ) {
    this.timeBoxMs = options.timeBoxMs ?? HOTEL_SEARCH_TIME_BOX_MS;
    this.cacheTtlMs = options.cacheTtlMs ?? 5 * 60_000;
    this.partialCacheTtlMs = options.partialCacheTtlMs ?? 30_000;
  }

  async searchHotels(query: HotelSearchQuery): Promise<HotelSearchResult> {
    const request = validRequest(query);
    const key = [query.tenant, request.airport, request.checkIn, request.checkOut, request.rooms].join("|");
    const cached = this.cache.get(key);
    if (cached && this.clock.now() < cached.expiresAt) return { ...cached.result, fromCache: true };
    const under = this.asking.get(key);
    if (under) return { ...(await under.answer), fromCache: true };

    const searchedAt = this.clock.now();
    const asking = { airport: request.airport, answer: this.ask(query.tenant, request, searchedAt) };
    this.asking.set(key, asking);
    try {
      const result = await asking.answer;
      // An answer with no vendor at all is an outage, not a result worth reusing; nor is one an
      // invalidation overtook while it was under way.
      if (result.vendorsAnswered.length > 0 && this.asking.get(key) === asking) {
        const ttl = result.vendorsMissing.length === 0 ? this.cacheTtlMs : this.partialCacheTtlMs;
        this.dropExpired();
        this.cache.set(key, { airport: request.airport, expiresAt: searchedAt + ttl, result });
      }
      return result;
    } finally {
      if (this.asking.get(key) === asking) this.asking.delete(key);
    }
  }

  private async ask(
    tenant: string,
    request: HotelSearchRequest,
    searchedAt: number,
  ): Promise<HotelSearchResult> {
    const outcomes = await this.gather(this.vendors.forTenant(tenant), request);
    const offers = outcomes.flatMap((outcome) => ("offers" in outcome ? outcome.offers : []));
    return {
      hotels: dedupOffers(offers, (offer) => this.comparablePrice(offer)),
      vendorsAnswered: outcomes.filter((o) => "offers" in o).map((o) => o.vendor),
      vendorsMissing: outcomes.flatMap((o) =>
        "missing" in o
          ? [
              {
                vendor: o.vendor,
                reason: o.missing,
                ...(o.vendorErrorCode ? { vendorErrorCode: o.vendorErrorCode } : {}),
              },
            ]
          : [],
      ),
      searchedAt: new Date(searchedAt).toISOString(),
      fromCache: false,
    };
  }

  /** Keeps the cache to live answers, so searches for ever-new dates do not grow it without bound. */
  private dropExpired(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(key);
  }

  /** Drops every cached answer for the airport (all tenants, dates and room counts); returns how many. */
  invalidate(airport: string): number {
    for (const [key, asking] of this.asking)
      if (asking.airport === airport.toUpperCase()) this.asking.delete(key);
    let dropped = 0;
    for (const [key, entry] of this.cache) {
      if (entry.airport === airport.toUpperCase()) {
        this.cache.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  /** Asks every vendor at once; whoever has not answered when the time-box closes is reported missing. */
  private async gather(vendors: InventoryVendor[], request: HotelSearchRequest): Promise<VendorOutcome[]> {
    let timer: TimerHandle | undefined;
    const timeBox = new Promise<"timeout">((resolve) => {
      timer = this.clock.setTimer(() => resolve("timeout"), this.timeBoxMs);
    });
    try {
      // Kept in the tenant's vendor order, not arrival order, so equal inputs give equal answers.
      return await Promise.all(
        vendors.map(async (vendor): Promise<VendorOutcome> => {
          const answer = vendor.search(request).then(
            (offers) => ({ vendor: vendor.id, offers }),
            (error: unknown) => failed(vendor.id, error),
          );
          const first = await Promise.race([answer, timeBox]);
          return first === "timeout" ? { vendor: vendor.id, missing: "timeout" } : first;
        }),
      );
    } finally {
      timer?.cancel();
    }
  }

  private comparablePrice(offer: HotelOffer): number {
    const { base } = this.options.exchangeRates;
    return (
      convert(offer.nightlyRate, base, this.options.exchangeRates)?.amountMinor ?? Number.POSITIVE_INFINITY
    );
  }
}

function failed(vendor: string, error: unknown): VendorOutcome {
  if (CircuitOpenError.is(error)) return { vendor, missing: "circuit-open" };
  const vendorCode = (error as { vendorCode?: unknown } | null)?.vendorCode;
  return {
    vendor,
    missing: "error",
    ...(typeof vendorCode === "string" ? { vendorErrorCode: vendorCode } : {}),
  };
}

function validRequest(query: HotelSearchQuery): HotelSearchRequest {
  const airport = query.airport?.toUpperCase() ?? "";
  const problems: string[] = [];
  if (!AIRPORT_CODE.test(airport)) problems.push("airport must be an IATA code");
  if (!ISO_DATE.test(query.checkIn) || Number.isNaN(Date.parse(query.checkIn)))
    problems.push("checkIn must be YYYY-MM-DD");
  if (!ISO_DATE.test(query.checkOut) || Number.isNaN(Date.parse(query.checkOut)))
    problems.push("checkOut must be YYYY-MM-DD");
  else if (query.checkOut <= query.checkIn) problems.push("checkOut must be after checkIn");
  if (!Number.isInteger(query.rooms) || query.rooms < 1) problems.push("rooms must be a positive integer");
  if (problems.length > 0) {
    throw new DomainError("invalid", "hotel-search", problems.join("; "), { errors: problems });
  }
  return { airport, checkIn: query.checkIn, checkOut: query.checkOut, rooms: query.rooms };
}
