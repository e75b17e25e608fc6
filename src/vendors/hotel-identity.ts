/**
 * How a vendor's hotel gets its `hotelUrn` and its one-line address. Vendors that publish the
 * provider-independent property code share one URN for the same building, which dedup's first
 * rule (same provider id or same hotelUrn) merges; the others get a URN scoped to the vendor and
 * are matched by place or by name and address instead.
 */
import { urn } from "../domain/urn.js";

export function hotelUrnFor(provider: string, providerHotelId: string, propertyCode: string | null): string {
  return propertyCode ? urn("hotel", propertyCode) : urn("hotel", `${provider}.${providerHotelId}`);
}

/** Every adapter writes addresses alike, so that dedup's exact name-and-address rule can match them. */
export function oneLineAddress(parts: {
  street: string;
  city: string;
  postalCode: string;
  country: string;
}): string {
  return `${parts.street}, ${parts.city} ${parts.postalCode}, ${parts.country}`;
}
