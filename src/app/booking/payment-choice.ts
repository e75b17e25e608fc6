import type { PaymentMethod } from "../../domain/policy/policy.js";
import type { BookingPayment } from "../../vendors/vendor-port.js";

/** The tenant's card for hotels that take no guarantee, when it keeps one with the service. */
export interface BookingCard {
  number: string;
  /** YYYY-MM. */
  expiry: string;
}

/**
 * How a booking pays (spec 2.4 acceptedPayments, default GUARANTEE): a guarantee to the airline's
 * account whenever the policy accepts it and the offer takes it; a card only when the policy
 * allows CARD, the offer needs it, and the tenant has a booking card. Otherwise the guarantee is
 * offered anyway and the vendor's INVALID_PAYMENT_INFO surfaces the case for payment correction.
 */
export function choosePayment(
  accepted: readonly PaymentMethod[],
  offerPayments: readonly PaymentMethod[] | undefined,
  card: BookingCard | undefined,
): BookingPayment {
  const offerTakesGuarantee = offerPayments === undefined || offerPayments.includes("GUARANTEE");
  if (accepted.includes("GUARANTEE") && offerTakesGuarantee) return { method: "GUARANTEE" };
  if (accepted.includes("CARD") && card) return { method: "CARD", card: { ...card } };
  return { method: "GUARANTEE" };
}
