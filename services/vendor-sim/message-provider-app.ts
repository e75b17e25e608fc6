/**
 * The simulated notification providers over HTTP, under `/<provider id>` (`/sms/v1/messages`,
 * `/messaging/v1/messages`), running exactly the code the in-process transport calls.
 * `/<provider>/_sim/...` lets tests and demos act as the passenger or inject faults:
 *   fail-next {times}, recipient {to, behaviour}, reply {messageId, text}, opt-out {messageId}.
 */
import type { Middleware } from "koa";
import type { MessageProviderSimulators, RecipientBehaviour } from "./message-provider.js";
import { readBody } from "./request-body.js";
import { answerOnWire, controlInput, MAX_SIMULATOR_BODY_BYTES } from "./wire-route.js";

/** Answers the providers' paths; passes anything else on. */
export function messageProviderRoutes(providers: MessageProviderSimulators): Middleware {
  return async (ctx, next) => {
    const [, providerId = "", ...rest] = ctx.path.split("/");
    const sim = providers.byId(providerId);
    if (!sim || !["GET", "POST"].includes(ctx.method)) return next();
    const path = `/${rest.join("/")}`;
    const body = await readBody(ctx.req, MAX_SIMULATOR_BODY_BYTES);
    if (path.startsWith("/_sim/")) {
      const input = controlInput(body);
      ctx.status = 204;
      if (path === "/_sim/fail-next") sim.failNext(Number(input.times ?? 1));
      else if (path === "/_sim/recipient")
        sim.setRecipient(String(input.to), input.behaviour as RecipientBehaviour);
      else if (path === "/_sim/reply")
        ctx.status = (await sim.reply(String(input.messageId), String(input.text))) ? 204 : 404;
      else if (path === "/_sim/opt-out") ctx.status = (await sim.optOut(String(input.messageId))) ? 204 : 404;
      else ctx.status = 404;
      return;
    }
    await answerOnWire(ctx, sim, path, body);
  };
}
