import type { Money } from "./money.js";
import { parseUrn } from "./urn.js";
import { uuidFromParts } from "./uuid.js";

/**
 * A reservation: the rooms one passenger group holds at one hotel (spec 2.1 reservations[], 3.6).
 * This file holds its record and its URN form; how it is created, cancelled and changed by the
 * vendor lives in `booking/`.
 */
export const RESERVATION_STATUSES = ["CONFIRMED", "CANCELLED", "CHECKED_IN", "CHECKED_OUT"] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** Statuses in which the group holds its rooms (what the demand counts as booked). */
export const HOLDING_STATUSES: ReadonlySet<ReservationStatus> = new Set([
  "CONFIRMED",
  "CHECKED_IN",
  "CHECKED_OUT",
]);

/** The `vendor` segment of a reservation an operator booked out of band (POST manual-reservations). */
export const MANUAL_VENDOR = "manual";

/** How the reservation came about. */
export type ReservationSource = "wave" | "override" | "manual-review" | "manual";

/** How the stay is paid; OUT_OF_BAND for a manual reservation the operator settled elsewhere. */
export type ReservationPayment = "GUARANTEE" | "CARD" | "OUT_OF_BAND";

/**
 * One hotel the booking tried for a group and why it did not take it (spec 2.5 attemptedHotels):
 * `rate-not-available` (the offer went stale), `payment-refused`, `vendor-refused` (another
 * permanent refusal), `vendor-unavailable` (open circuit or retries exhausted), `vendor-not-enabled`
 * (the tenant no longer uses that vendor), `cancelled-by-hotel` (found by reconciliation); for a
 * direct contract, `contract-exhausted` (too few rooms left some night of the stay) and
 * `contract-not-covering` (the contract is gone or no longer covers the stay).
 */
export interface AttemptedHotel {
  hotelUrn: string;
  reason: string;
  /** The vendor's own error code, e.g. RATE_NOT_AVAILABLE. */
  providerError?: string;
}

export interface ReservationHotel {
  hotelUrn: string;
  name: string;
  address: string;
  /** The vendor's id for the hotel; null for a manual reservation. */
  providerHotelId: string | null;
}

export interface ReservationGuest {
  passengerId: string;
  name: string;
}

/** One voucher per reservation (spec part 1 step 5); amended in place when the stay changes. */
export interface VoucherRecord {
  urn: string;
  /** Printed beside the QR code so a hotel can check a voucher by hand. */
  verificationCode: string;
  issuedAt: string;
  /** Bumped by every vendor-side change after issue. */
  version: number;
  amendedAt: string | null;
}

export interface Reservation {
  id: string;
  /** Minted once, when the reservation is confirmed; see `reservationUrn`. */
  urn: string;
  tenant: string;
  caseUrn: string;
  /** The case's airport (its flight origin), for airport-scoped operators. */
  airport: string;
  groupId: string;
  waveUrn: string | null;
  demandUrn: string | null;
  status: ReservationStatus;
  vendor: string;
  /** The vendor's reservation id; null for a manual reservation. */
  vendorReservationId: string | null;
  confirmationNumber: string;
  providerOfferId: string | null;
  hotel: ReservationHotel;
  /** Local dates (YYYY-MM-DD); check-out is the morning after the last night. */
  checkIn: string;
  checkOut: string;
  rooms: number;
  guests: ReservationGuest[];
  payment: ReservationPayment;
  /** The whole stay for every room, in the vendor's (or the operator's) currency. */
  cost: Money;
  /**
   * The allocation's figure for the same stay in the policy's currency, which scoring compared;
   * null when the group was booked elsewhere than its allocation's offer, or by hand.
   */
  allocatedCost: Money | null;
  refundable: boolean | null;
  cancellationDeadline: string | null;
  source: ReservationSource;
  /** Hotels tried before this one took the group. */
  attemptedHotels: AttemptedHotel[];
  voucher: VoucherRecord;
  /** The system, or the user who booked it by hand or asked for the re-booking. */
  bookedBy: string;
  /** Why an operator booked out of band; null otherwise. */
  reason: string | null;
  /** The reservation this one replaced (an override or a re-booking moved the group). */
  replaces: string | null;
  createdAt: string;
  updatedAt: string;
  /** The vendor's last change as reconciliation saw it. */
  vendorUpdatedAt: string | null;
}

/**
 * `urn:reservation:<id>:vendor:<vendor>:status:<status>` (spec 2). The status segment records the
 * status when the URN was minted (confirmed): the URN is the reservation's identifier from then on
 * and does not change with later statuses, which the record's `status` carries. Lookups therefore
 * match on the id (and the vendor when given) and accept any status segment.
 */
export function reservationUrn(id: string, vendor: string, status: ReservationStatus): string {
  return `urn:reservation:${id}:vendor:${vendor}:status:${status.toLowerCase()}`;
}

export interface ReservationRef {
  id: string;
  vendor?: string;
  status?: string;
}

/** `urn:reservation:<id>` with optional `vendor` and `status` segments; undefined for anything else. */
export function parseReservationUrn(value: string): ReservationRef | undefined {
  const parsed = parseUrn(value, "reservation");
  if (!parsed) return undefined;
  const { vendor, status, ...others } = parsed.attributes;
  if (Object.keys(others).length > 0) return undefined;
  return { id: parsed.id, ...(vendor ? { vendor } : {}), ...(status ? { status } : {}) };
}

/** Whether a URN, in any of its accepted forms, names this reservation. */
export function urnNames(ref: ReservationRef, reservation: Pick<Reservation, "id" | "vendor">): boolean {
  return ref.id === reservation.id && (ref.vendor === undefined || ref.vendor === reservation.vendor);
}

/**
 * A reservation id derived from what makes it unique (case, booking request, vendor reservation):
 * a replayed confirmation lands on the same id instead of minting a second reservation.
 */
export function reservationIdFor(...parts: string[]): string {
  return uuidFromParts("", ...parts);
}

export function voucherUrnFor(reservationId: string): string {
  return `urn:voucher:${reservationId}`;
}

/** The reservation id behind a voucher URN (one voucher per reservation, same id). */
export function reservationIdOfVoucher(voucherUrn: string): string | undefined {
  const parsed = parseUrn(voucherUrn, "voucher");
  return parsed && Object.keys(parsed.attributes).length === 0 ? parsed.id : undefined;
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Eight characters a person can read out without confusing 0/O or 1/I, from random bytes. */
export function verificationCodeFrom(bytes: Uint8Array): string {
  if (bytes.length < 8) throw new Error("a verification code needs 8 random bytes");
  return Array.from(bytes.subarray(0, 8), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
}

/** One field of a reservation the vendor changed (reconciliation, spec 6.3). */
export interface FieldChange {
  field: "status" | "checkIn" | "checkOut" | "rooms" | "cost";
  before: unknown;
  after: unknown;
}

/** Nights between two ISO dates (YYYY-MM-DD). */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000);
}
