import { TransportSegmentActor } from "../../actors/TransportSegmentActor.js";
import { CaseTransfers } from "../../src/app/transport/case-transfers.js";
import { GroupLegs } from "../../src/app/transport/group-legs.js";
import { RideBooking } from "../../src/app/transport/ride-booking.js";
import { RideCallbacks } from "../../src/app/transport/ride-callbacks.js";
import { ReturnLegReminders } from "../../src/app/transport/return-leg-reminders.js";
import { TransportSegmentIndex } from "../../src/app/transport/transport-segment-index.js";
import { TransportSegments } from "../../src/app/transport/transport-segments.js";
import { VoucherTransports } from "../../src/app/transport/voucher-transport.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { transportRoutes } from "./transport-routes.js";
import { transportSubscriptions } from "./transport-subscriptions.js";

/**
 * Ground transport (spec 2.8, 4.1, 4.2): segments per group and direction, booked with the ride
 * provider the composition root binds (TOKENS.rideProvider), the case-wide transfer request, and
 * the provider's progress callbacks, and the return-leg e-mail. The saga's legs call CaseTransfers.
 */
export const transportModule: ServiceModule = {
  name: "transport",
  actorTypes: [TransportSegmentActor],
  register: (container) => {
    registerSingletons(container, [
      TransportSegmentIndex,
      GroupLegs,
      RideBooking,
      TransportSegments,
      CaseTransfers,
      RideCallbacks,
      VoucherTransports,
      ReturnLegReminders,
    ]);
  },
  // The reminders fire in the workers app, which holds the actors and sends notifications.
  subscriptions: (context, tenants) => ({ workers: transportSubscriptions(context, tenants) }),
  routes: ({ container }) =>
    transportRoutes({
      segments: container.resolve(TransportSegments),
      transfers: container.resolve(CaseTransfers),
      callbacks: container.resolve(RideCallbacks),
    }),
};
