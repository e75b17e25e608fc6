import type { HotelOffer } from "../../domain/allocation/offer.js";
import type { PaymentMethod } from "../../domain/policy/policy.js";
import type { HotelSearch } from "../hotel-search.js";
import type { BookingWaveHotel } from "./wave-reader.js";

/** What a reservation and its voucher say about the hotel. */
export interface HotelDescription {
  name: string;
  address: string;
}

/**
 * The offers vendors make now for a stay, as booking needs them: a wave names offers by vendor and
 * id, while a reservation needs the hotel's name and address and the offer's payments. Vendors
 * are asked once (the hotel search's cache answers repeats) for one room, so every hotel with a
 * room left is listed; what the wave recorded when it ran answers for hotels no longer listed.
 */
export class StayOffers {
  private readonly byOffer = new Map<string, HotelOffer>();
  private readonly byHotel = new Map<string, HotelOffer[]>();
  private readonly recorded = new Map<string, BookingWaveHotel>();

  constructor(
    listed: Iterable<{ hotelUrn: string; offers: readonly HotelOffer[] }>,
    recorded: readonly BookingWaveHotel[] = [],
  ) {
    for (const hotel of listed) {
      for (const offer of hotel.offers) {
        this.byOffer.set(`${offer.provider}|${offer.providerOfferId}`, offer);
        // A deduplicated hotel is known by its own URN and by each member's.
        for (const urn of new Set([hotel.hotelUrn, offer.hotelUrn])) {
          this.byHotel.set(urn, [...(this.byHotel.get(urn) ?? []), offer]);
        }
      }
    }
    for (const hotel of recorded) this.recorded.set(hotel.hotelUrn, hotel);
  }

  /** Every vendor's offer for the hotel listed now, cheapest first as the search ranked them. */
  offersOf(hotelUrn: string): readonly HotelOffer[] {
    return this.byHotel.get(hotelUrn) ?? [];
  }

  /** How the offer may be paid, when anyone listed it. */
  payments(hotelUrn: string, vendor: string, providerOfferId: string): readonly PaymentMethod[] | undefined {
    return (
      this.byOffer.get(`${vendor}|${providerOfferId}`)?.payments ??
      this.recorded
        .get(hotelUrn)
        ?.offers.find((o) => o.provider === vendor && o.providerOfferId === providerOfferId)?.payments
    );
  }

  /** The hotel's name and address: from the offer booked, any vendor listing it, or the wave. */
  describe(hotelUrn: string, vendor: string, providerOfferId: string): HotelDescription | undefined {
    const listed = this.byOffer.get(`${vendor}|${providerOfferId}`) ?? this.offersOf(hotelUrn)[0];
    return listed ?? this.recorded.get(hotelUrn);
  }
}

/**
 * Stay offers for the bookings of many groups at once (a wave's groups are booked one activity
 * each): a search under way is shared, and one StayOffers is built per search answer (the hotel
 * search's cache hands back the same hotels until it expires), so a wave costs one search and one
 * index, as when its groups were booked in one pass.
 */
export class SharedStayOffers {
  private readonly underWay = new Map<string, Promise<StayOffers>>();
  private readonly built = new WeakMap<readonly unknown[], StayOffers>();

  constructor(private readonly search: HotelSearch) {}

  find(stay: { tenant: string; airport: string; checkIn: string; checkOut: string }): Promise<StayOffers> {
    const key = `${stay.tenant}|${stay.airport}|${stay.checkIn}|${stay.checkOut}`;
    let found = this.underWay.get(key);
    if (!found) {
      found = this.search.searchHotels({ ...stay, rooms: 1 }).then(({ hotels }) => {
        let offers = this.built.get(hotels);
        if (!offers) {
          offers = new StayOffers(hotels);
          this.built.set(hotels, offers);
        }
        return offers;
      });
      this.underWay.set(key, found);
      const forget = () => this.underWay.delete(key);
      found.then(forget, forget);
    }
    return found;
  }
}
