/** A point on the Earth in decimal degrees (WGS 84). */
export interface Coordinates {
  readonly lat: number;
  readonly lon: number;
}

/**
 * Mean Earth radius (IUGG). The spherical model errs by at most about 0.5 % against the ellipsoid,
 * far below what matters for "within N km of the airport" or "within 100 m of each other".
 */
export const EARTH_MEAN_RADIUS_KM = 6371.0088;

const RADIANS_PER_DEGREE = Math.PI / 180;

/**
 * Great-circle ("straight line", spec 2.4) distance in kilometres. Haversine rather than the
 * spherical law of cosines because it stays accurate for the short distances dedup compares.
 */
export function greatCircleKm(from: Coordinates, to: Coordinates): number {
  const dLat = (to.lat - from.lat) * RADIANS_PER_DEGREE;
  const dLon = (to.lon - from.lon) * RADIANS_PER_DEGREE;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(from.lat * RADIANS_PER_DEGREE) * Math.cos(to.lat * RADIANS_PER_DEGREE) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
