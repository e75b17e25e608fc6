import { describe, expect, it } from "vitest";
import { greatCircleKm } from "../../src/domain/geo.js";
import {
  bearingDegrees,
  compassPoint,
  distanceKm,
  markerRadius,
  niceRadiusKm,
  placeAround,
  polarToPoint,
} from "../../services/operator-console/src/geometry.js";

const BOS = { lat: 42.3656, lon: -71.0096 };

describe("allocation picture geometry", () => {
  it("measures distance as the service does and bearings clockwise from north", () => {
    const winthrop = { lat: 42.37436, lon: -71.05909 };
    expect(distanceKm(BOS, winthrop)).toBeCloseTo(greatCircleKm(BOS, winthrop), 9);
    expect(bearingDegrees({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(0, 6);
    expect(bearingDegrees({ lat: 0, lon: 0 }, { lat: 0, lon: 1 })).toBeCloseTo(90, 6);
    expect(bearingDegrees({ lat: 0, lon: 0 }, { lat: -1, lon: 0 })).toBeCloseTo(180, 6);
    expect(bearingDegrees({ lat: 0, lon: 0 }, { lat: 0, lon: -1 })).toBeCloseTo(270, 6);
    // Winthrop is west-north-west of Logan.
    expect(compassPoint(bearingDegrees(BOS, winthrop))).toBe("W");
    expect(compassPoint(359)).toBe("N");
    expect(compassPoint(-45)).toBe("NW");
  });

  it("puts north up and east right around the centre", () => {
    const centre = { x: 100, y: 100 };
    const north = polarToPoint(0, 20, centre);
    const east = polarToPoint(90, 20, centre);
    expect(north.x).toBeCloseTo(100);
    expect(north.y).toBeCloseTo(80);
    expect(east.x).toBeCloseTo(120);
    expect(east.y).toBeCloseTo(100);
  });

  it("fits the farthest hotel inside a round outer ring, on a square-root scale", () => {
    expect([0.3, 1, 1.5, 3, 7, 12, 25.4].map(niceRadiusKm)).toEqual([0.5, 1, 2, 5, 10, 20, 50]);
    expect(niceRadiusKm(0)).toBe(1);
    const far = { lat: 42.507023, lon: -70.766033 };
    const { placed, radiusKm, pixelsFor, ringsKm } = placeAround(BOS, [far, { ...BOS }], 400, 20);
    expect(radiusKm).toBe(50);
    expect(ringsKm).toEqual([5, 20, 50]);
    expect(pixelsFor(50)).toBeCloseTo(180);
    expect(pixelsFor(12.5)).toBeCloseTo(90);
    expect(pixelsFor(0)).toBe(0);
    expect(placed[1]!.point).toEqual({ x: 200, y: 200 });
    const { x, y } = placed[0]!.point;
    expect(Math.hypot(x - 200, y - 200)).toBeCloseTo(pixelsFor(placed[0]!.distanceKm), 6);
    // Revere Beach is north-east of Logan: right of and above the airport.
    expect(x).toBeGreaterThan(200);
    expect(y).toBeLessThan(200);
    expect(placeAround(BOS, [], 400, 20).radiusKm).toBe(1);
  });

  it("grows a marker's area with its rooms", () => {
    const one = markerRadius(1);
    const four = markerRadius(4, 0);
    expect(four).toBeCloseTo(2 * markerRadius(1, 0));
    expect(markerRadius(0)).toBe(5);
    expect(one).toBeGreaterThan(5);
  });
});
