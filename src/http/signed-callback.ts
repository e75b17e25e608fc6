import type { Context } from "koa";
import type { SignedCallback } from "../app/notifications/delivery-callbacks.js";
import { CALLBACK_HEADERS } from "../domain/notification-callbacks.js";

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
