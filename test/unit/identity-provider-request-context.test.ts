import Koa from "koa";
import { describe, expect, it } from "vitest";
import { providerRequestContext } from "../../src/identity/provider-request-context.js";
import { deferred } from "../support/deferred.js";

describe("the identity provider's request context", () => {
  it("is turned off once the last request in flight is done, not before", async () => {
    let disabled = 0;
    const middleware = providerRequestContext({ disable: () => disabled++ });
    const first = deferred();
    const second = deferred();
    const ctx = {} as Koa.Context;
    const a = middleware(ctx, () => first.promise);
    const b = middleware(ctx, () => second.promise);
    first.resolve();
    await a;
    expect(disabled).toBe(0);
    second.resolve();
    await b;
    expect(disabled).toBe(1);
  });

  it("is turned off after a request that failed too", async () => {
    let disabled = 0;
    const middleware = providerRequestContext({ disable: () => disabled++ });
    await expect(
      middleware({} as Koa.Context, async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(disabled).toBe(1);
  });

  it("finds oidc-provider's own storage", () => {
    expect(() => providerRequestContext()).not.toThrow();
  });
});
