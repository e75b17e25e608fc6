/**
 * The simulated wallet issuer over HTTP (`services/vendor-sim/wallet-issuer.ts`): its whole API under
 * `/wallet-sim` in the vendor-sim app, running exactly the code the in-process transport calls, with
 * `/wallet-sim/_sim/...` for tests and demos (fail-next {fault, times}, funding-pool {clientId,
 * amount}, revoke-tokens). On the embedded default only its hosted reveal page is served, on the
 * operator host under `/vendor-sim/wallet-sim/reveal/`, since the simulator runs in process.
 */
import type { Middleware } from "koa";
import { readBody } from "./request-body.js";
import { answerOnWire, controlInput, MAX_SIMULATOR_BODY_BYTES } from "./wire-route.js";
import type { WalletFault, WalletIssuerSimulator } from "./wallet-issuer.js";

/** Answers `/<sim id>/...`; passes anything else on. */
export function walletIssuerRoutes(sim: WalletIssuerSimulator): Middleware {
  const prefix = `/${sim.id}`;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(`${prefix}/`) || !["GET", "POST"].includes(ctx.method)) return next();
    const path = ctx.path.slice(prefix.length);
    const body = await readBody(ctx.req, MAX_SIMULATOR_BODY_BYTES);
    if (path.startsWith("/_sim/")) {
      const input = controlInput(body);
      ctx.status = 204;
      if (path === "/_sim/fail-next") sim.failNext(input.fault as WalletFault, Number(input.times ?? 1));
      else if (path === "/_sim/funding-pool")
        sim.setFundingPool(String(input.clientId), Number(input.amount));
      else if (path === "/_sim/revoke-tokens") sim.revokeTokens();
      else ctx.status = 404;
      return;
    }
    await answerOnWire(ctx, sim, path, body);
  };
}

/** The hosted reveal page alone, at `<prefix>/<sim id>/reveal/<session>` (GET). */
export function walletRevealPages(sim: WalletIssuerSimulator, prefix: string): Middleware {
  const pages = `${prefix}/${sim.id}/reveal/`;
  const reveal: Middleware = async (ctx) => {
    const response = await sim.handle({
      method: "GET",
      path: ctx.path.slice(`${prefix}/${sim.id}`.length),
      headers: {},
    });
    ctx.status = response.status;
    for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
    ctx.body = response.body;
  };
  // Not an async function: on the operator host every API request passes here first.
  return (ctx, next) => (ctx.method === "GET" && ctx.path.startsWith(pages) ? reveal(ctx, next) : next());
}
