/**
 * The simulated ride provider over HTTP, under `/<provider id>` (`/rides/v1/rides`, ...), running
 * exactly the code the in-process transport calls. `/rides/_sim/...` lets tests and demos act as
 * the provider's dispatch: decline-next {times}, fail-next {kind, times}, eta {rideId, etaAt},
 * complete {rideId}, cancel {rideId, code}.
 */
import type { Middleware } from "koa";
import type { FaultKind } from "./fault-injection.js";
import { readBody } from "./request-body.js";
import { answerOnWire, controlInput, MAX_SIMULATOR_BODY_BYTES } from "./wire-route.js";
import type { RideProviderSimulator } from "./ride-provider.js";

/** Answers the provider's paths; passes anything else on. */
export function rideProviderRoutes(simulator: RideProviderSimulator): Middleware {
  return async (ctx, next) => {
    const [, providerId = "", ...rest] = ctx.path.split("/");
    if (providerId !== simulator.id || !["GET", "POST"].includes(ctx.method)) return next();
    const path = `/${rest.join("/")}`;
    const body = await readBody(ctx.req, MAX_SIMULATOR_BODY_BYTES);
    if (path.startsWith("/_sim/")) {
      const input = controlInput(body);
      const rideId = String(input.rideId ?? "");
      ctx.status = 204;
      if (path === "/_sim/decline-next") simulator.declineNext(Number(input.times ?? 1));
      else if (path === "/_sim/fail-next")
        simulator.failNext(String(input.kind) as FaultKind, Number(input.times ?? 1));
      else if (path === "/_sim/eta")
        ctx.status = (await simulator.reportEta(rideId, String(input.etaAt))) ? 204 : 404;
      else if (path === "/_sim/complete") ctx.status = (await simulator.complete(rideId)) ? 204 : 404;
      else if (path === "/_sim/cancel")
        ctx.status = (await simulator.cancelByProvider(rideId, input.code ? String(input.code) : undefined))
          ? 204
          : 404;
      else ctx.status = 404;
      return;
    }
    await answerOnWire(ctx, simulator, path, body);
  };
}
