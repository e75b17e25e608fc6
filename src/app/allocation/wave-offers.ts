import { dedupOffers, type Hotel } from "../../domain/allocation/dedup.js";
import { type HotelOffer, hotelFactsOf } from "../../domain/allocation/offer.js";
import { type Coordinates, greatCircleKm } from "../../domain/geo.js";
import { convert, type ExchangeRates, fromMajor, type Money } from "../../domain/money.js";
import type { ContractDocument } from "../hotels/contracts.js";
import type { CatalogHotelDocument } from "../hotels/hotel-catalog.js";
import type { AllocationRow, WaveHotelRecord, WaveOfferRecord } from "./wave-documents.js";

/** The provider name of a direct contract's offer. */
export const DIRECT_CONTRACT_PROVIDER = "direct-contract";

/**
 * A contract as an offer of its hotel: the catalog gives the place, stars and amenities the gates
 * read; the rooms are the contract's rooms per night less those other cases' waves already hold
 * on overlapping nights. The hotel is paid on the airline's account (GUARANTEE).
 */
export function contractOffer(
  contract: ContractDocument,
  hotel: CatalogHotelDocument,
  heldElsewhere: readonly AllocationRow[],
): HotelOffer {
  const held = heldElsewhere
    .filter((row) => row.providerOfferId === contract.urn)
    .reduce((sum, row) => sum + row.rooms, 0);
  return {
    hotelUrn: hotel.hotelUrn,
    provider: DIRECT_CONTRACT_PROVIDER,
    providerHotelId: hotel.hotelUrn,
    providerOfferId: contract.urn,
    ...hotelFactsOf(hotel),
    nightlyRate: fromMajor(contract.nightlyRate, contract.currency),
    roomsAvailable: Math.max(0, contract.roomsPerNight - held),
    payments: ["GUARANTEE"],
    isDirectContract: true,
  };
}

/**
 * The search's vendor offers less the rooms other cases' waves hold at the same hotel and vendor
 * since the search answered (`heldSince`: rows allocated at or after its `searchedAt`). Concurrent
 * waves at one airport share one cached answer (spec 8.2 meltdown), so each must see the rooms the
 * others took, or they all send their groups to the same best hotels and only the first gets them.
 * A row names the hotel as its wave de-duplicated it, so it matches any URN of the hotel's offers.
 */
export function vendorOffersLessHeld(
  hotels: readonly Hotel[],
  heldSince: readonly AllocationRow[],
): HotelOffer[] {
  const held = new Map<string, number>();
  for (const row of heldSince) {
    const key = `${row.hotelUrn}|${row.provider}`;
    held.set(key, (held.get(key) ?? 0) + row.rooms);
  }
  return hotels.flatMap((hotel) => {
    if (held.size === 0) return hotel.offers;
    const urns = new Set([hotel.hotelUrn, ...hotel.offers.map((offer) => offer.hotelUrn)]);
    return hotel.offers.map((offer) => {
      let rooms = 0;
      for (const hotelUrn of urns) rooms += held.get(`${hotelUrn}|${offer.provider}`) ?? 0;
      return rooms > 0 ? { ...offer, roomsAvailable: Math.max(0, offer.roomsAvailable - rooms) } : offer;
    });
  });
}

export interface WaveOffers {
  /** Every offer, contracts carrying the market rate of their hotel. */
  offers: HotelOffer[];
  /** The hotels the offers describe, de-duplicated as the wave does, for the wave's record. */
  hotels: WaveHotelRecord[];
}

/**
 * Vendor offers and contract offers together. A contract's market rate is the cheapest vendor
 * offer for the same hotel in this search (the same de-duplication the wave applies finds it), so
 * the saving recorded is against what the airline would otherwise have paid that night.
 */
export function waveOffers(
  vendorOffers: readonly HotelOffer[],
  contractOffers: readonly HotelOffer[],
  wave: { airport: Coordinates; currency: string; rates: ExchangeRates },
): WaveOffers {
  const converted = (rate: Money) => convert(rate, wave.currency, wave.rates) ?? null;
  const price = (offer: HotelOffer) => converted(offer.nightlyRate)?.amountMinor ?? Number.POSITIVE_INFINITY;
  const market = new Map<HotelOffer, Money>();
  const hotels = dedupOffers([...vendorOffers, ...contractOffers], price).map((hotel): WaveHotelRecord => {
    const cheapestVendor = hotel.offers.find((o) => !o.isDirectContract && converted(o.nightlyRate));
    const marketRate = cheapestVendor ? converted(cheapestVendor.nightlyRate) : null;
    for (const offer of hotel.offers) if (offer.isDirectContract && marketRate) market.set(offer, marketRate);
    const [facts] = [...hotel.offers].sort((a, b) => Number(b.isDirectContract) - Number(a.isDirectContract));
    return {
      hotelUrn: hotel.hotelUrn,
      ...hotelFactsOf(facts!),
      amenities: [...facts!.amenities],
      distanceKm: greatCircleKm(wave.airport, facts!),
      offers: hotel.offers.map(
        (offer): WaveOfferRecord => ({
          provider: offer.provider,
          providerOfferId: offer.providerOfferId,
          providerHotelId: offer.providerHotelId,
          nightlyRate: offer.nightlyRate,
          convertedNightlyRate: converted(offer.nightlyRate),
          marketNightlyRate: offer.isDirectContract ? marketRate : null,
          roomsAvailable: offer.roomsAvailable,
          payments: [...offer.payments],
          isDirectContract: offer.isDirectContract,
        }),
      ),
    };
  });
  const offers = [...vendorOffers, ...contractOffers].map((offer) => {
    const marketNightlyRate = market.get(offer);
    return marketNightlyRate ? { ...offer, marketNightlyRate } : offer;
  });
  return { offers, hotels };
}
