import type { CatalogHotelDocument } from "../../src/app/hotels/hotel-catalog.js";
import { AMENITIES, type Amenity } from "../../src/domain/policy/policy.js";
import { urn } from "../../src/domain/urn.js";
import { oneLineAddress } from "../../src/vendors/hotel-identity.js";
import type { HotelCatalog } from "../vendor-sim/catalog.js";

/**
 * The curated catalog as the demo knows it: the simulators' physical hotels, under the URN the
 * vendors that publish the property code give them, so a contract's hotel and those vendors' offers
 * are recognised as one hotel.
 */
export function catalogDocumentsOf(catalog: HotelCatalog): CatalogHotelDocument[] {
  return catalog.hotels.map((hotel) => {
    const hotelUrn = urn("hotel", hotel.propertyCode);
    return {
      _id: hotelUrn,
      hotelUrn,
      airport: hotel.airport,
      name: hotel.name,
      address: oneLineAddress({
        street: hotel.address.line,
        city: hotel.address.city,
        postalCode: hotel.address.postalCode,
        country: hotel.address.country,
      }),
      lat: hotel.lat,
      lon: hotel.lon,
      stars: hotel.stars ?? null,
      chainId: hotel.chain?.chainId ?? null,
      amenities: hotel.amenities.filter((a): a is Amenity => (AMENITIES as readonly string[]).includes(a)),
      distanceKm: hotel.distanceKm,
      vendors: [...hotel.vendors],
    };
  });
}
