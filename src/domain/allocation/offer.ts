import type { Money } from "../money.js";
import type { AmenityTag } from "./amenities.js";

/** How a hotel can be paid (spec 2.4 acceptedPayments): a guarantee to the airline's account, or a card. */
export type PaymentMethod = "GUARANTEE" | "CARD";

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
  readonly amenities: readonly AmenityTag[];
  /** Price of one room for one night, in the vendor's currency. */
  readonly nightlyRate: Money;
  readonly roomsAvailable: number;
  readonly payments: readonly PaymentMethod[];
  readonly isDirectContract: boolean;
  /** For a direct contract: what the same room costs on the open market. */
  readonly marketNightlyRate?: Money;
}
