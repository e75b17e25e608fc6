import type { Money } from "../money.js";
import type { Amenity, PaymentMethod } from "../policy/policy.js";

/**
 * One provider's offer for one hotel, after its vendor adapter normalized it. A direct contract
 * is an offer like any other, with the market rate beside it so the wave can record the saving.
 */
export interface HotelOffer {
  readonly hotelUrn: string;
  readonly provider: string;
  readonly providerHotelId: string;
  readonly providerOfferId: string;
  readonly name: string;
  readonly address: string;
  readonly lat: number;
  readonly lon: number;
  /** Official star rating; null for an unrated property. */
  readonly stars: number | null;
  /** Provider-independent chain id; null for an independent hotel. */
  readonly chainId: string | null;
  readonly amenities: readonly Amenity[];
  /** Price of one room for one night, in the vendor's currency. */
  readonly nightlyRate: Money;
  readonly roomsAvailable: number;
  readonly payments: readonly PaymentMethod[];
  readonly isDirectContract: boolean;
  /** For a direct contract: what the same room costs on the open market. */
  readonly marketNightlyRate?: Money;
}

/** What describes a hotel wherever an offer, a wave's record or a read shows one. */
export type HotelFacts = Pick<
  HotelOffer,
  "name" | "address" | "lat" | "lon" | "stars" | "chainId" | "amenities"
>;

/** The hotel facts of an offer, a catalog hotel or a wave's record, and nothing else of it. */
export function hotelFactsOf<H extends HotelFacts>(hotel: H): Pick<H, keyof HotelFacts> {
  return {
    name: hotel.name,
    address: hotel.address,
    lat: hotel.lat,
    lon: hotel.lon,
    stars: hotel.stars,
    chainId: hotel.chainId,
    amenities: hotel.amenities,
  };
}

/**
 * An offer's key wherever offers are told apart: the vendor that sells it (an offer's `provider`,
 * an allocation's `vendor`) and its id there. Booking stores it for offers found stale, so its
 * form stays `<vendor>|<providerOfferId>`.
 */
export function offerKey(vendor: string, providerOfferId: string): string {
  return `${vendor}|${providerOfferId}`;
}
