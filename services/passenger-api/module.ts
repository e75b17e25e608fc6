import { instanceCachingFactory } from "tsyringe";
import { PassengerCheckIn } from "../../src/app/passengers/passenger-check-in.js";
import { OfferCache } from "../../src/app/passengers/offer-cache.js";
import { PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import { PassengerProblems } from "../../src/app/passengers/passenger-problem.js";
import { PassengerSnapshots } from "../../src/app/passengers/passenger-snapshot.js";
import { PassengerTransports } from "../../src/app/passengers/passenger-transport.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { caseUseCases } from "../cases/case-use-cases.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { passengerEventStreamRoute } from "./event-stream-route.js";
import { passengerMeRoutes } from "./me-routes.js";
import { passengerOfferRoutes } from "./offer-routes.js";
import { PassengerEventStreams } from "./passenger-event-streams.js";
import { passengerEventSubscriptions } from "./passenger-event-subscriptions.js";
import { passengerStayRoutes } from "./stay-routes.js";
import { WalletReads } from "../../src/app/wallet/wallet-reads.js";

/**
 * The passenger API's own routes (its login routes come with the passenger identity component) and
 * the passengers' event streams, which the passenger API's process holds.
 */
export const passengerModule: ServiceModule = {
  name: "passenger-api",
  register: (container) => {
    registerSingletons(container, [
      OfferCache,
      PassengerSnapshots,
      PassengerOffers,
      PassengerCheckIn,
      PassengerProblems,
      PassengerTransports,
    ]);
    container.register(PassengerEventStreams, {
      useFactory: instanceCachingFactory((c) => {
        const runtime = c.resolve<Runtime>(TOKENS.runtime);
        return new PassengerEventStreams(runtime.documents, runtime.clock);
      }),
    });
  },
  subscriptions: (context, tenants) => ({ "passenger-api": passengerEventSubscriptions(context, tenants) }),
  routes: ({ container, runtime }) => {
    const offers = container.resolve(PassengerOffers);
    const snapshots = container.resolve(PassengerSnapshots);
    return [
      ...passengerMeRoutes(caseUseCases(container)),
      ...passengerOfferRoutes(offers),
      ...passengerStayRoutes({
        snapshots,
        offers,
        checkIn: container.resolve(PassengerCheckIn),
        problems: container.resolve(PassengerProblems),
        wallets: container.resolve(WalletReads),
        transport: container.resolve(PassengerTransports),
      }),
      passengerEventStreamRoute({
        snapshots,
        streams: container.resolve(PassengerEventStreams),
        clock: runtime.clock,
      }),
    ];
  },
  start: async ({ container }) => {
    await container.resolve(PassengerEventStreams).log.ensureIndexes();
  },
  stop: async ({ container }) => container.resolve(PassengerEventStreams).endAll(),
};
