/**
 * Where a hotel goes on the allocation picture: the airport in the middle, each hotel at its
 * bearing (north up, clockwise) and at its great-circle distance on a square-root scale (the
 * hotels near the airport, where groups usually go, get the room; a far one still fits). Pure, no
 * map tiles needed.
 */

export interface Coordinates {
  lat: number;
  lon: number;
}

export interface Point {
  x: number;
  y: number;
}

const EARTH_MEAN_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle distance in kilometres (haversine, as the service measures hotel distances). */
export function distanceKm(from: Coordinates, to: Coordinates): number {
  const dLat = (to.lat - from.lat) * RAD;
  const dLon = (to.lon - from.lon) * RAD;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(from.lat * RAD) * Math.cos(to.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from `from` to `to`, in degrees clockwise from north, in [0, 360). */
export function bearingDegrees(from: Coordinates, to: Coordinates): number {
  const φ1 = from.lat * RAD;
  const φ2 = to.lat * RAD;
  const Δλ = (to.lon - from.lon) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  const degrees = Math.atan2(y, x) / RAD;
  return (degrees + 360) % 360;
}

/** A bearing and a radius in pixels as a point of the picture: north up, east right of `centre`. */
export function polarToPoint(bearing: number, r: number, centre: Point): Point {
  const θ = bearing * RAD;
  return { x: centre.x + r * Math.sin(θ), y: centre.y - r * Math.cos(θ) };
}

/** A round outer distance for the picture's edge (1, 2 or 5 times a power of ten) at least `km`. */
export function niceRadiusKm(km: number): number {
  if (!(km > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(km));
  for (const step of [1, 2, 5, 10]) if (step * power >= km) return step * power;
  return 10 * power;
}

export interface Placed<T> {
  item: T;
  bearing: number;
  distanceKm: number;
  point: Point;
}

export interface Placement<T> {
  placed: Placed<T>[];
  /** The distance at the picture's edge (a round number at least the farthest item's). */
  radiusKm: number;
  /** How far from the centre a distance is drawn, in pixels (square-root scale). */
  pixelsFor(km: number): number;
  /** Round distances for the rings, the edge's last. */
  ringsKm: number[];
}

/**
 * Places every item around `airport` in a square picture of `size` pixels with `margin` left free
 * at the edge.
 */
export function placeAround<T extends Coordinates>(
  airport: Coordinates,
  items: readonly T[],
  size: number,
  margin: number,
): Placement<T> {
  const centre = { x: size / 2, y: size / 2 };
  const measured = items.map((item) => ({
    item,
    bearing: bearingDegrees(airport, item),
    distanceKm: distanceKm(airport, item),
  }));
  const radiusKm = niceRadiusKm(Math.max(0, ...measured.map((m) => m.distanceKm)));
  const edge = size / 2 - margin;
  const pixelsFor = (km: number) => edge * Math.sqrt(Math.max(0, km) / radiusKm);
  const ringsKm = [...new Set([niceRadiusKm(radiusKm / 16), niceRadiusKm(radiusKm / 4), radiusKm])].filter(
    (km) => km <= radiusKm,
  );
  return {
    placed: measured.map((m) => ({ ...m, point: polarToPoint(m.bearing, pixelsFor(m.distanceKm), centre) })),
    radiusKm,
    pixelsFor,
    ringsKm,
  };
}

/** A marker's radius for `rooms` rooms: its area grows with the rooms (so 4 rooms look twice as wide as 1). */
export function markerRadius(rooms: number, base = 5, perRoom = 4): number {
  return Math.sqrt(base * base + perRoom * perRoom * Math.max(0, rooms));
}

/** The eight compass words for a bearing ("NE" for 45°). */
export function compassPoint(bearing: number): string {
  const points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
  return points[Math.round((((bearing % 360) + 360) % 360) / 45) % 8]!;
}
