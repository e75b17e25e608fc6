import { describe, expect, it } from "vitest";
import { EARTH_MEAN_RADIUS_KM, greatCircleKm } from "../../src/domain/geo.js";

describe("greatCircleKm", () => {
  it.each([
    { name: "same point", from: { lat: 48.35, lon: 11.78 }, to: { lat: 48.35, lon: 11.78 }, km: 0 },
    {
      name: "one degree of latitude",
      from: { lat: 0, lon: 0 },
      to: { lat: 1, lon: 0 },
      km: (Math.PI * EARTH_MEAN_RADIUS_KM) / 180,
    },
    {
      name: "half the equator",
      from: { lat: 0, lon: 0 },
      to: { lat: 0, lon: 180 },
      km: Math.PI * EARTH_MEAN_RADIUS_KM,
    },
    {
      name: "JFK to LHR",
      from: { lat: 40.6413, lon: -73.7781 },
      to: { lat: 51.47, lon: -0.4543 },
      km: 5540.02,
    },
    {
      name: "about 100 m north",
      from: { lat: 48.35, lon: 11.78 },
      to: { lat: 48.3509, lon: 11.78 },
      km: 0.10008,
    },
  ])("$name", ({ from, to, km }) => {
    expect(greatCircleKm(from, to)).toBeCloseTo(km, 2);
    expect(greatCircleKm(to, from)).toBeCloseTo(km, 2);
  });

  it("measures a degree of longitude shorter away from the equator", () => {
    const atEquator = greatCircleKm({ lat: 0, lon: 0 }, { lat: 0, lon: 1 });
    const atSixty = greatCircleKm({ lat: 60, lon: 0 }, { lat: 60, lon: 1 });
    expect(atSixty / atEquator).toBeCloseTo(0.5, 3);
  });
});
