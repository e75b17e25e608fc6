import { AsyncLocalStorage } from "node:async_hooks";
import type { Middleware } from "koa";
// oidc-provider keeps the Koa context of the request it serves in this AsyncLocalStorage, and reads
// it back only for the client ID metadata document feature, which this provider leaves off.
// @ts-expect-error: a module of oidc-provider's own, without type declarations.
import providerContext from "oidc-provider/lib/helpers/als.js";

/** What is needed of an AsyncLocalStorage here. */
export interface RequestContextStorage {
  disable(): void;
}

/**
 * On Node 20, an AsyncLocalStorage that has run once keeps promise hooks installed for every
 * promise of the process; oidc-provider runs its storage around each of its requests, so a single
 * token request would leave the whole API paying about a third of its CPU per request from then
 * on. The storage is turned off again once the identity provider has no request in flight (its
 * next request turns it on again), so only the identity provider's own requests pay for it.
 */
export function providerRequestContext(storage: RequestContextStorage = oidcProviderStorage()): Middleware {
  let inFlight = 0;
  return async (_ctx, next) => {
    inFlight++;
    try {
      await next();
    } finally {
      if (--inFlight === 0) storage.disable();
    }
  };
}

function oidcProviderStorage(): RequestContextStorage {
  if (!(providerContext instanceof AsyncLocalStorage)) {
    throw new Error("oidc-provider no longer keeps its request context where this module expects it");
  }
  return providerContext;
}
