import type { BookingCard } from "../../src/app/booking/payment-choice.js";
import { DEMO_AIRLINES } from "../../src/demo/demo-airlines.js";

/**
 * The card each demo airline keeps with the service for hotels that take no guarantee (used only
 * when its policy accepts CARD). A test number the simulators accept; a live tenant's card would
 * come from its own secret store, never from code.
 */
export function demoBookingCards(): (tenant: string) => BookingCard | undefined {
  const card: BookingCard = { number: "4111111111111111", expiry: "2099-12" };
  const tenants = new Set(DEMO_AIRLINES.map((airline) => airline.airlineUrn));
  return (tenant) => (tenants.has(tenant) ? card : undefined);
}
