import { DemandActor } from "../../actors/DemandActor.js";
import { DemandAdministration } from "../../src/app/demand/demand-administration.js";
import { DemandIndex } from "../../src/app/demand/demand-index.js";
import { AirportFreezes } from "../../src/app/demand/airport-freezes.js";
import { CaseDemandSummary } from "../../src/app/demand/demand-summary.js";
import { registerSingletons, type ServiceModule } from "../module.js";
import { demandRoutes } from "./demand-routes.js";
import { airportFreezeRoutes } from "./airport-freeze-routes.js";

/** Room demand and its approval: one actor per case, the `demands` index and the demand routes. */
export const demandModule: ServiceModule = {
  name: "demand",
  actorTypes: [DemandActor],
  register: (container) =>
    registerSingletons(container, [DemandIndex, AirportFreezes, DemandAdministration, CaseDemandSummary]),
  routes: ({ container }) => [
    ...demandRoutes(
      container.resolve(DemandAdministration),
      container.resolve(CaseDemandSummary),
      container.resolve(DemandIndex),
    ),
    ...airportFreezeRoutes(container.resolve(AirportFreezes)),
  ],
};
