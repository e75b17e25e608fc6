import { BookingActor } from "../../actors/BookingActor.js";
import { ReconciliationActor } from "../../actors/ReconciliationActor.js";
import type { ServiceModule } from "../module.js";
import { bookingOf } from "./booking.js";
import { bookingRoutes } from "./booking-routes.js";
import { bookingSubscriptions } from "./booking-subscriptions.js";

/**
 * Bookings, reservations and vouchers: books allocation waves with the hotel vendors, keeps one
 * reservation and voucher per group, hands what cannot be booked to the review queue, and
 * reconciles with the vendors on a schedule.
 */
export const bookingModule: ServiceModule = {
  name: "booking",
  actorTypes: [BookingActor, ReconciliationActor],
  subscriptions: (context, tenants) =>
    bookingSubscriptions(tenants, () => ({ booking: bookingOf(context()), logger: context().logger })),
  routes: (context) => bookingRoutes(bookingOf(context)),
  start: async (context) => {
    const minutes = context.config.vendorReconciliationMinutes;
    const { reconciliation } = bookingOf(context);
    for (const organization of await context.directory.organizations()) {
      await reconciliation.schedule(organization.airlineUrn, minutes);
    }
  },
};
