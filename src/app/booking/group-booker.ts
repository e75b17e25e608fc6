import type { PaymentMethod } from "../../domain/policy/policy.js";
import type { BookingFailure, BookingPlan } from "../../domain/booking/group-booking.js";
import type { OfferCandidate } from "../../domain/booking/offer-candidate.js";
import type { AttemptedHotel } from "../../domain/reservation.js";
import { CircuitOpenError } from "../../vendors/circuit-open-error.js";
import { VendorError } from "../../vendors/vendor-error.js";
import type { BookingPayment, InventoryVendors, VendorReservation } from "../../vendors/vendor-port.js";
import { offerKey } from "../../domain/allocation/offer.js";
import { vendorBookingKey } from "../../domain/booking/vendor-idempotency.js";
import { vendorBookingReference } from "../../domain/booking/vendor-reference.js";
import { caseRefOf } from "../cases/case-changes.js";
import { DirectContracts, isDirect } from "./direct-contracts.js";
import { type BookingCard, choosePayment } from "./payment-choice.js";
import type { StayOffers } from "./stay-offers.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface GroupBookingRequest {
  tenant: string;
  /**
   * What the vendors' idempotency keys derive from (`vendorBookingKey`), and the group their client
   * reference names (`vendorBookingReference`).
   */
  attempt: { caseUrn: string; groupId: string; bookingKey: string; attempt: number };
  plan: BookingPlan;
  guestNames: string[];
  acceptedPayments: readonly PaymentMethod[];
  card: BookingCard | undefined;
  offers: StayOffers;
  /** What earlier rounds found: stale offers are not tried again, attempts are kept. */
  staleOffers: readonly string[];
  attemptedHotels: readonly AttemptedHotel[];
}

interface Tried {
  attemptedHotels: AttemptedHotel[];
  staleOffers: string[];
}

export type GroupBookingOutcome =
  | (Tried & {
      kind: "booked";
      candidate: OfferCandidate;
      reservation: VendorReservation;
      payment: BookingPayment["method"];
      /** The hotel's name as the contract has it, for a direct reservation. */
      hotelName?: string;
    })
  | (Tried & { kind: "failed"; failure: BookingFailure })
  | (Tried & { kind: "pending" });

/**
 * Books one group by trying its plan's offers in order (spec 7): RATE_NOT_AVAILABLE marks the offer
 * stale and the next one is tried; INVALID_PAYMENT_INFO stops at once (another hotel would get the
 * same payment; an operator must correct it); another permanent refusal moves on; a vendor behind
 * an open circuit, or still failing after the client's retries, is passed over. When nothing took
 * the group, it is pending if some vendor was merely unavailable (to be tried again), else failed.
 * A direct contract's offer is reserved against the contract's rooms, with no vendor call; a
 * contract without the rooms (or no longer covering the stay) moves on to the next offer.
 */
@injectable()
export class GroupBooker {
  constructor(
    @inject(TOKENS.vendors) private readonly vendors: InventoryVendors,
    @inject(DirectContracts) private readonly contracts: DirectContracts,
  ) {}

  async book(request: GroupBookingRequest): Promise<GroupBookingOutcome> {
    const tried: Tried = {
      attemptedHotels: [...request.attemptedHotels],
      staleOffers: [...request.staleOffers],
    };
    const attempt = (hotel: AttemptedHotel) => {
      const same = tried.attemptedHotels.some(
        (a) =>
          a.hotelUrn === hotel.hotelUrn &&
          a.reason === hotel.reason &&
          a.providerError === hotel.providerError,
      );
      if (!same) tried.attemptedHotels.push(hotel);
    };
    const vendors = new Map(this.vendors.forTenant(request.tenant).map((vendor) => [vendor.id, vendor]));
    let unavailable = false;
    for (const candidate of request.plan.candidates) {
      if (tried.staleOffers.includes(offerKey(candidate.vendor, candidate.providerOfferId))) continue;
      if (isDirect(candidate.vendor)) {
        const direct = await this.contracts.reserve({
          tenant: request.tenant,
          contractUrn: candidate.providerOfferId,
          checkIn: request.plan.checkIn,
          checkOut: request.plan.checkOut,
          rooms: request.plan.rooms,
          guestNames: request.guestNames,
        });
        if (direct.kind === "reserved") {
          const { reservation, hotelName } = direct;
          return { kind: "booked", candidate, reservation, payment: "GUARANTEE", hotelName, ...tried };
        }
        attempt({ hotelUrn: candidate.hotelUrn, reason: direct.reason, providerError: direct.providerError });
        continue;
      }
      const vendor = vendors.get(candidate.vendor);
      if (!vendor) {
        attempt({
          hotelUrn: candidate.hotelUrn,
          reason: "vendor-not-enabled",
          providerError: candidate.vendor,
        });
        continue;
      }
      const payment = choosePayment(
        request.acceptedPayments,
        request.offers.payments(candidate.hotelUrn, candidate.vendor, candidate.providerOfferId),
        request.card,
      );
      try {
        const { caseUrn, groupId, bookingKey, attempt: number } = request.attempt;
        const idempotencyKey = vendorBookingKey(caseUrn, bookingKey, number, candidate);
        const reservation = await vendor.book({
          providerOfferId: candidate.providerOfferId,
          rooms: request.plan.rooms,
          guestNames: request.guestNames,
          payment,
          idempotencyKey,
          clientReference: vendorBookingReference({
            tenant: request.tenant,
            caseId: caseRefOf(caseUrn).id,
            groupId,
            idempotencyKey,
          }),
        });
        return { kind: "booked", candidate, reservation, payment: payment.method, ...tried };
      } catch (error) {
        if (CircuitOpenError.is(error)) {
          unavailable = true;
          attempt({
            hotelUrn: candidate.hotelUrn,
            reason: "vendor-unavailable",
            providerError: "CIRCUIT_OPEN",
          });
          continue;
        }
        if (!(error instanceof VendorError)) throw error;
        const providerError = error.vendorCode;
        if (providerError === "RATE_NOT_AVAILABLE") {
          tried.staleOffers.push(offerKey(candidate.vendor, candidate.providerOfferId));
          attempt({ hotelUrn: candidate.hotelUrn, reason: "rate-not-available", providerError });
        } else if (providerError === "INVALID_PAYMENT_INFO") {
          attempt({ hotelUrn: candidate.hotelUrn, reason: "payment-refused", providerError });
          return {
            kind: "failed",
            failure: {
              category: "PAYMENT_FAILED",
              reason: `${candidate.vendor} refused the ${payment.method.toLowerCase()} payment`,
              vendorErrorCode: providerError,
            },
            ...tried,
          };
        } else if (error.retryable) {
          unavailable = true;
          attempt({ hotelUrn: candidate.hotelUrn, reason: "vendor-unavailable", providerError });
        } else {
          attempt({ hotelUrn: candidate.hotelUrn, reason: "vendor-refused", providerError });
        }
      }
    }
    if (unavailable) return { kind: "pending", ...tried };
    const lastError = tried.attemptedHotels.at(-1)?.providerError ?? null;
    return {
      kind: "failed",
      failure: {
        category: "BOOKING_FAILED",
        reason:
          request.plan.candidates.length === 0
            ? "no offer to book"
            : "every attempted hotel refused or errored",
        vendorErrorCode: lastError,
      },
      ...tried,
    };
  }
}
