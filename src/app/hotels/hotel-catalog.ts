import type { Amenity } from "../../domain/policy/policy.js";
import type {
  Doc,
  DocumentCollection,
  DocumentStore,
  FindOptions,
  Page,
} from "../../runtime/document-store.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";
import { indexedCollection } from "../indexed-collection.js";

export const HOTELS_COLLECTION = "hotels";

/**
 * One physical hotel of the curated catalog (GET /v1/hotels/list): the hotels the service knows
 * around each airport, whichever vendors sell them. Direct contracts are made with these hotels,
 * and the catalog gives a contract's offer the place, stars and amenities that gates need.
 */
export interface CatalogHotelDocument extends Doc {
  /** The hotel URN, `urn:hotel:<provider-independent property code>`. */
  _id: string;
  hotelUrn: string;
  airport: string;
  name: string;
  address: string;
  lat: number;
  lon: number;
  /** Null for an unrated property. */
  stars: number | null;
  chainId: string | null;
  amenities: Amenity[];
  /** Great-circle distance from the airport. */
  distanceKm: number;
  /** Inventory vendors that list the hotel. */
  vendors: string[];
}

@injectable()
export class HotelCatalogIndex {
  private readonly documents: DocumentCollection<CatalogHotelDocument>;

  constructor(@inject(TOKENS.documents) store: DocumentStore) {
    this.documents = indexedCollection(store, HOTELS_COLLECTION, [{ keys: { airport: 1, distanceKm: 1 } }]);
  }

  /** Replaces the catalog entries of these hotels (a reload is harmless). */
  async load(hotels: readonly CatalogHotelDocument[]): Promise<void> {
    await Promise.all(hotels.map((hotel) => this.documents.put(hotel)));
  }

  /** Hotels around the given airports, nearest first. */
  async page(airports: readonly string[], page: FindOptions): Promise<Page<CatalogHotelDocument>> {
    return this.documents.find({ airport: { $in: [...airports] } }, { ...page, sort: { distanceKm: 1 } });
  }

  async get(hotelUrn: string): Promise<CatalogHotelDocument | undefined> {
    return this.documents.get(hotelUrn);
  }
}
