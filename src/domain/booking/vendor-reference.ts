/**
 * The reference the platform gives a hotel vendor with every booking (the vendor's "client
 * reference"): it names the tenant, the case and the group the room was booked for, and the
 * booking's idempotency key. The vendor stores it and lists the client's bookings by its prefix, so
 * reconciliation can find a room booked under the platform's name that no reservation records (an
 * orphan: its booker lost its claim and could not give it back).
 */

/** Marks the references this platform writes, so another system on the same vendor account is never read as ours. */
const PLATFORM_MARK = "dra";

export interface VendorBookingReference {
  tenant: string;
  /** The case's id (its URN is `urn:case:<id>`). */
  caseId: string;
  groupId: string;
  /** The booking's `Idempotency-Key` (`vendorBookingKey`). */
  idempotencyKey: string;
}

/** What every reference of the tenant's bookings starts with. */
export function vendorReferencePrefix(tenant: string): string {
  return `${PLATFORM_MARK}/${encodeURIComponent(tenant)}/`;
}

export function vendorBookingReference(reference: VendorBookingReference): string {
  const { tenant, caseId, groupId, idempotencyKey } = reference;
  return `${vendorReferencePrefix(tenant)}${[caseId, groupId, idempotencyKey].map(encodeURIComponent).join("/")}`;
}

/** The parts of a reference this platform wrote; undefined for any other text. */
export function parseVendorBookingReference(text: string): VendorBookingReference | undefined {
  const parts = text.split("/");
  if (parts.length !== 5 || parts[0] !== PLATFORM_MARK || parts.some((part) => part === "")) return undefined;
  try {
    const [tenant, caseId, groupId, idempotencyKey] = parts.slice(1).map(decodeURIComponent);
    return { tenant: tenant!, caseId: caseId!, groupId: groupId!, idempotencyKey: idempotencyKey! };
  } catch {
    return undefined;
  }
}
