import type { HotelOffer } from "../../src/domain/allocation/offer.js";

/** Where a test's airport stands; offers are placed due north of it. */
export interface Airport {
  readonly lat: number;
  readonly lon: number;
}

/**
 * Offers around one airport, sold by one provider in one currency: a 4-star hotel 3 km north with
 * rooms for a night at 100.00, unless a test says otherwise.
 */
export function offersAround(airport: Airport, seller: { provider: string; currency: string }) {
  const north = (km: number) => ({ lat: airport.lat + km / 111.195, lon: airport.lon });
  function offer(id: string, overrides: Partial<HotelOffer> = {}): HotelOffer {
    return {
      hotelUrn: `urn:hotel:${id}`,
      provider: seller.provider,
      providerHotelId: id,
      providerOfferId: `offer-${id}`,
      name: `Hotel ${id}`,
      address: `${id} Airport Road`,
      ...north(3),
      stars: 4,
      chainId: null,
      amenities: ["24H_RECEPTION"],
      nightlyRate: { amountMinor: 10000, currency: seller.currency },
      roomsAvailable: 5,
      payments: ["GUARANTEE"],
      isDirectContract: false,
      ...overrides,
    };
  }
  return { north, offer };
}
