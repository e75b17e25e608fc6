import { caseUseCases } from "../cases/case-use-cases.js";
import type { ServiceModule } from "../module.js";
import { passengerMeRoutes } from "./me-routes.js";

/** The passenger API's own reads (its login routes come with the passenger identity component). */
export const passengerModule: ServiceModule = {
  name: "passenger-api",
  routes: ({ container }) => passengerMeRoutes(caseUseCases(container)),
};
