import { describe, expect, it } from "vitest";
import { dedupOffers, normalizeForMatching } from "../../src/domain/allocation/dedup.js";
import type { HotelOffer } from "../../src/domain/allocation/offer.js";

const AIRPORT = { lat: 48.3538, lon: 11.7861 };
/** Degrees of latitude per metre on the mean-radius sphere. */
const DEG_PER_M = 1 / 111_195;

function offer(id: string, overrides: Partial<HotelOffer> = {}): HotelOffer {
  return {
    hotelUrn: `urn:hotel:${id}`,
    provider: "hotelbeds",
    providerHotelId: `hb-${id}`,
    providerOfferId: `offer-${id}`,
    name: `Hotel ${id}`,
    address: `${id} Some Street`,
    lat: AIRPORT.lat,
    lon: AIRPORT.lon,
    stars: 4,
    chainId: null,
    amenities: [],
    nightlyRate: { amountMinor: 10000, currency: "EUR" },
    roomsAvailable: 10,
    payments: ["GUARANTEE"],
    isDirectContract: false,
    ...overrides,
  };
}

const byAmount = (o: HotelOffer) => o.nightlyRate.amountMinor;

function groupsOf(offers: HotelOffer[]): string[][] {
  return dedupOffers(offers, byAmount).map((hotel) => hotel.offers.map((o) => o.providerOfferId).sort());
}

describe("dedupOffers: the three rules of spec 8.2", () => {
  it.each([
    {
      rule: "provider id match merges, whatever the name and place",
      a: offer("a", { providerHotelId: "hb-1" }),
      b: offer("b", { providerHotelId: "hb-1", name: "Other", lat: AIRPORT.lat + 0.1 }),
      merged: true,
    },
    {
      rule: "the same hotelUrn from two providers merges",
      a: offer("a", { hotelUrn: "urn:hotel:cat-7", lat: AIRPORT.lat + 0.1 }),
      b: offer("b", { hotelUrn: "urn:hotel:cat-7", provider: "expedia" }),
      merged: true,
    },
    {
      rule: "the same provider hotel id at two providers does not merge",
      a: offer("a", { providerHotelId: "1" }),
      b: offer("b", { providerHotelId: "1", provider: "expedia", lat: AIRPORT.lat + 0.1 }),
      merged: false,
    },
    {
      rule: "within 100 m with the same stars merges",
      a: offer("a", { provider: "expedia" }),
      b: offer("b", { lat: AIRPORT.lat + 60 * DEG_PER_M, lon: AIRPORT.lon + 0.0005 }),
      merged: true,
    },
    {
      rule: "at 99 m with the same stars merges",
      a: offer("a"),
      b: offer("b", { lat: AIRPORT.lat + 99 * DEG_PER_M }),
      merged: true,
    },
    {
      rule: "within 100 m with different stars does not merge",
      a: offer("a", { stars: 3 }),
      b: offer("b", { stars: 4, lat: AIRPORT.lat + 50 * DEG_PER_M }),
      merged: false,
    },
    {
      rule: "150 m apart with the same stars does not merge",
      a: offer("a"),
      b: offer("b", { lat: AIRPORT.lat + 150 * DEG_PER_M }),
      merged: false,
    },
    {
      rule: "two unrated offers 20 m apart do not merge (same stars cannot be confirmed)",
      a: offer("a", { stars: null }),
      b: offer("b", { stars: null, lat: AIRPORT.lat + 20 * DEG_PER_M }),
      merged: false,
    },
    {
      rule: "the same normalized name and address merges, even 5 km apart",
      a: offer("a", { name: "Hôtel Ibis  Munich-Airport", address: "1 Airport Rd." }),
      b: offer("b", {
        provider: "expedia",
        name: "HOTEL IBIS MUNICH AIRPORT",
        address: "1, Airport Road",
        lat: AIRPORT.lat + 0.045,
        stars: 3,
      }),
      merged: true,
    },
    {
      rule: "the same name at another address does not merge",
      a: offer("a", { name: "Ibis Airport", address: "1 Airport Road" }),
      b: offer("b", { name: "Ibis Airport", address: "3 Airport Road", lat: AIRPORT.lat + 0.045 }),
      merged: false,
    },
  ])("$rule", ({ a, b, merged }) => {
    expect(groupsOf([a, b])).toHaveLength(merged ? 1 : 2);
  });

  it("is transitive: a provider-id match and a coordinate match make one hotel of three offers", () => {
    const a = offer("a", { providerHotelId: "hb-1" });
    const b = offer("b", { providerHotelId: "hb-1", lat: AIRPORT.lat + 0.01 });
    const c = offer("c", { provider: "expedia", lat: AIRPORT.lat + 0.01 + 40 * DEG_PER_M });
    const far = offer("far", { lat: AIRPORT.lat + 0.02 });
    expect(groupsOf([a, b, c, far])).toEqual([["offer-a", "offer-b", "offer-c"], ["offer-far"]]);
  });

  it("keeps every provider's offer, cheapest first, under the smallest hotelUrn", () => {
    const hotels = dedupOffers(
      [
        offer("z", { hotelUrn: "urn:hotel:z", nightlyRate: { amountMinor: 12000, currency: "EUR" } }),
        offer("m", {
          hotelUrn: "urn:hotel:m",
          provider: "expedia",
          nightlyRate: { amountMinor: 9000, currency: "EUR" },
        }),
        offer("q", {
          hotelUrn: "urn:hotel:q",
          provider: "direct",
          nightlyRate: { amountMinor: 9500, currency: "USD" },
        }),
      ],
      (o) => (o.nightlyRate.currency === "EUR" ? o.nightlyRate.amountMinor : Infinity),
    );
    expect(hotels).toHaveLength(1);
    expect(hotels[0]!.hotelUrn).toBe("urn:hotel:m");
    expect(hotels[0]!.offers.map((o) => o.providerOfferId)).toEqual(["offer-m", "offer-z", "offer-q"]);
  });
});

describe("normalizeForMatching", () => {
  it.each([
    { text: "Hôtel Mercure Zürich", normalized: "hotel mercure zurich" },
    { text: "  Best Western,  Airport-Hotel ", normalized: "best western airport hotel" },
    { text: "12 St. Mary's Rd.", normalized: "12 street marys road" },
    { text: "Intl. Arpt Blvd & 5th Ave", normalized: "international airport boulevard and 5th avenue" },
    { text: "Große Straße 3", normalized: "grosse strasse 3" },
  ])("$text -> $normalized", ({ text, normalized }) => {
    expect(normalizeForMatching(text)).toBe(normalized);
  });
});
