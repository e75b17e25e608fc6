import type { Context } from "koa";
import { describe, expect, it } from "vitest";
import { hostNameOf, tenantOfHost } from "../../services/passenger-api/tenant-hosts.js";

function requestTo(host: string | undefined): Context {
  return { req: { headers: host === undefined ? {} : { host } } } as unknown as Context;
}

describe("the passenger host's name", () => {
  it("is the Host header without its port, in lower case, without trailing dots", () => {
    const names = [
      ["ZX.localhost:8080", "zx.localhost"],
      ["zx.localhost.:80", "zx.localhost"],
      ["zx.localhost..", "zx.localhost"],
      ["zx.localhost:", "zx.localhost"],
      ["[::1]:8080", "[::1]"],
      ["[::1]", "[::1]"],
      ["zx.localhost:http", "zx.localhost:http"],
    ];
    expect(names.map(([host]) => hostNameOf(requestTo(host)))).toEqual(names.map(([, name]) => name));
    expect(hostNameOf(requestTo(undefined))).toBeUndefined();
  });

  it("names the tenant whose host it is, and never falls back for another airline's host", () => {
    const tenantOf = tenantOfHost(
      new Map([
        ["zx.localhost", "urn:airline:ZX"],
        ["vq.localhost", "urn:airline:VQ"],
      ]),
      "urn:airline:ZX",
    );
    expect(tenantOf(requestTo("VQ.localhost.:3001"))).toBe("urn:airline:VQ");
    expect(tenantOf(requestTo("localhost:3001"))).toBe("urn:airline:ZX");
  });
});
