import type { Context } from "koa";
import type { SignedCallback } from "../app/notifications/delivery-callbacks.js";
import { CALLBACK_HEADERS } from "../domain/notification-callbacks.js";
import { UnauthorizedError } from "./errors.js";

/**
 * A vendor's signed callback (spec 4.5, 6.3) as it arrived: the raw body its signature covers (the
 * JSON parser keeps it) and the `X-Vendor-*` headers, for the use case to verify.
 */
export function signedCallbackOf(ctx: Context, correlationUrn: string): SignedCallback {
  return {
    rawBody: (ctx.request as { rawBody?: string }).rawBody ?? "",
    signature: ctx.get(CALLBACK_HEADERS.signature) || undefined,
    timestamp: ctx.get(CALLBACK_HEADERS.timestamp) || undefined,
    eventId: ctx.get(CALLBACK_HEADERS.eventId) || undefined,
    correlationUrn,
  };
}

/**
 * Hands the callback as it arrived to `receive` (the use case that verifies and applies it); a
 * signature that is not the vendor's is a 401 problem.
 */
export async function receiveSignedCallback<Outcome extends { outcome: string }>(
  ctx: Context,
  correlationUrn: string,
  receive: (callback: SignedCallback) => Promise<Outcome>,
): Promise<Exclude<Outcome, { outcome: "bad-signature" }>> {
  const outcome = await receive(signedCallbackOf(ctx, correlationUrn));
  if (outcome.outcome === "bad-signature") {
    throw new UnauthorizedError("invalid_token", "The callback's signature is not the vendor's");
  }
  return outcome as Exclude<Outcome, { outcome: "bad-signature" }>;
}
