import { TransportSegmentActor } from "../../actors/TransportSegmentActor.js";
import { CaseTransfers } from "../../src/app/transport/case-transfers.js";
import { GroupLegs } from "../../src/app/transport/group-legs.js";
import { RideBooking } from "../../src/app/transport/ride-booking.js";
import { RideCallbacks } from "../../src/app/transport/ride-callbacks.js";
import { TransportSegmentIndex } from "../../src/app/transport/transport-segment-index.js";
import { TransportSegments } from "../../src/app/transport/transport-segments.js";
import { VoucherTransports } from "../../src/app/transport/voucher-transport.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { transportRoutes } from "./transport-routes.js";

/**
 * Ground transport (spec 2.8, 4.1, 4.2): segments per group and direction, booked with the ride
 * provider the composition root binds (TOKENS.rideProvider), the case-wide transfer request, and
 * the provider's progress callbacks. The saga's legs call CaseTransfers.
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
    ]);
  },
  routes: ({ container }) =>
    transportRoutes({
      segments: container.resolve(TransportSegments),
      transfers: container.resolve(CaseTransfers),
      callbacks: container.resolve(RideCallbacks),
    }),
};
