import { FlightStateIntake } from "../../src/app/flight-states/flight-state-intake.js";
import { flightStateRoutes } from "./flight-state-routes.js";
import type { FlightStateSource } from "../../src/runtime/flight-state-source.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { type ModuleContext, registerSingletons, type ServiceModule, WORKFLOW_SERVICE } from "../module.js";

/**
 * The flight-state stream (spec 6.3) and the predictor's `disruption.detected` (6.1): the source
 * main chose (FLIGHT_STATE_SOURCE) is consumed by the workers app, the one app that runs the
 * background work (all of them on the embedded runtime). Without a source, nothing is consumed.
 */
export const flightStatesModule: ServiceModule = {
  name: "flight-states",
  register: (container) => registerSingletons(container, [FlightStateIntake]),
  routes: ({ container }) => flightStateRoutes(container.resolve(FlightStateIntake)),
  start: async ({ container, config, logger }: ModuleContext) => {
    if (!config.services.includes(WORKFLOW_SERVICE)) return;
    if (!container.isRegistered(TOKENS.flightStateSource, true)) return;
    const source = container.resolve<FlightStateSource>(TOKENS.flightStateSource);
    const intake = container.resolve(FlightStateIntake);
    const log = logger.child({ flightStateSource: source.description });
    await source.start({
      handle: async (message) => {
        const outcome = await intake.receive(message);
        if (outcome.kind === "invalid") log.warn({ errors: outcome.errors }, "flight state dropped: invalid");
        else if (outcome.kind === "assessed" && outcome.assessment.detected) {
          const { flight, probability, threshold, eventUrn } = outcome.assessment;
          log.info({ flight: flight.number, probability, threshold, eventUrn }, "disruption detected");
        }
      },
      onUnreadable: (raw, error) =>
        log.warn({ err: error, raw: raw.slice(0, 200) }, "flight state dropped: not JSON"),
      onGivenUp: (message, error) =>
        log.error({ err: error, message }, "flight state given up after a retry"),
    });
    log.info("consuming flight states");
  },
  stop: async ({ container }: ModuleContext) => {
    if (container.isRegistered(TOKENS.flightStateSource, true)) {
      await container.resolve<FlightStateSource>(TOKENS.flightStateSource).close();
    }
  },
};
