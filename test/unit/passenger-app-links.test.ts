import { describe, expect, it } from "vitest";
import { takeLinkToken } from "../../services/passenger-app/src/magic-link.js";
import { openStreetMapUrl } from "../../services/passenger-app/src/map-link.js";
import { problemOf } from "../../services/passenger-app/src/problem.js";

describe("the passenger app's pure parts", () => {
  it("takes the magic link's token out of the address, keeping the rest", () => {
    expect(takeLinkToken("http://zx.localhost:8081/?token=a.b.c")).toEqual({ token: "a.b.c", cleanUrl: "/" });
    expect(takeLinkToken("http://zx.localhost:8081/offer?lang=es&token=a.b.c#voucher")).toEqual({
      token: "a.b.c",
      cleanUrl: "/offer?lang=es#voucher",
    });
    expect(takeLinkToken("http://zx.localhost:8081/?token=")).toEqual({ token: undefined, cleanUrl: "/" });
    expect(takeLinkToken("http://zx.localhost:8081/")).toEqual({ token: undefined, cleanUrl: "/" });
  });

  it("links to the hotel on OpenStreetMap by its coordinates", () => {
    expect(openStreetMapUrl({ lat: 40.6413111, lon: -73.7781391 })).toBe(
      "https://www.openstreetmap.org/?mlat=40.641311&mlon=-73.778139#map=17/40.641311/-73.778139",
    );
  });

  it("reads a problem document, else the status line", () => {
    expect(
      problemOf(409, "Conflict", {
        type: "https://errors.example/conflict/offer-already-declined",
        title: "Conflict",
        detail: "The offer was declined",
      }),
    ).toEqual({
      status: 409,
      title: "Conflict",
      detail: "The offer was declined",
      code: "offer-already-declined",
    });
    expect(problemOf(502, "Bad Gateway", undefined)).toEqual({ status: 502, title: "Bad Gateway" });
    expect(problemOf(500, "", "oops")).toEqual({ status: 500, title: "HTTP 500" });
  });
});
