import { PassengerCheckIn } from "../../src/app/passengers/passenger-check-in.js";
import { PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import { PassengerProblems } from "../../src/app/passengers/passenger-problem.js";
import { PassengerSnapshots } from "../../src/app/passengers/passenger-snapshot.js";
import { caseUseCases } from "../cases/case-use-cases.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { passengerMeRoutes } from "./me-routes.js";
import { passengerOfferRoutes } from "./offer-routes.js";
import { passengerStayRoutes } from "./stay-routes.js";

/** The passenger API's own routes (its login routes come with the passenger identity component). */
export const passengerModule: ServiceModule = {
  name: "passenger-api",
  register: (container) =>
    registerSingletons(container, [PassengerSnapshots, PassengerOffers, PassengerCheckIn, PassengerProblems]),
  routes: ({ container }) => {
    const offers = container.resolve(PassengerOffers);
    return [
      ...passengerMeRoutes(caseUseCases(container)),
      ...passengerOfferRoutes(offers),
      ...passengerStayRoutes({
        snapshots: container.resolve(PassengerSnapshots),
        offers,
        checkIn: container.resolve(PassengerCheckIn),
        problems: container.resolve(PassengerProblems),
      }),
    ];
  },
};
