import { BookingActor } from "../../actors/BookingActor.js";
import { ReconciliationActor } from "../../actors/ReconciliationActor.js";
import { BookingSteps } from "../../src/app/booking/booking-steps.js";
import { registerBookGroups } from "../../src/workflows/book-groups/registration.js";
import type { ServiceModule } from "../module.js";
import { bookingRoutes } from "./booking-routes.js";
import { bookingSubscriptions } from "./booking-subscriptions.js";
import { bookingUseCases, registerBookingUseCases } from "./booking-use-cases.js";

/**
 * Bookings, reservations and vouchers: books allocation waves with the hotel vendors (the
 * book-groups workflow), keeps one
 * reservation and voucher per group, hands what cannot be booked to the review queue, and
 * reconciles with the vendors on a schedule.
 */
export const bookingModule: ServiceModule = {
  name: "booking",
  actorTypes: [BookingActor, ReconciliationActor],
  registerWorkflows: (registry, context) =>
    registerBookGroups(registry, () => context().container.resolve(BookingSteps)),
  register: registerBookingUseCases,
  subscriptions: (context, tenants) => ({
    workers: bookingSubscriptions(tenants, () => ({
      booking: bookingUseCases(context().container),
      logger: context().logger,
    })),
  }),
  routes: ({ container }) => bookingRoutes(bookingUseCases(container)),
  start: async ({ container, config, directory }) => {
    const minutes = config.vendorReconciliationMinutes;
    const { reconciliation } = bookingUseCases(container);
    for (const organization of await directory.organizations()) {
      await reconciliation.schedule(organization.airlineUrn, minutes);
    }
  },
};
