/**
 * Which region serves a multi-region tenant's virtual host (spec part 1: "routes to the closest
 * healthy region"): the region it is on while that region stays healthy, so a tenant's session
 * does not flap between regions whose data differs; otherwise the healthy region of the tenant
 * nearest to the router (great-circle distance: the router sits at the clients' edge).
 */
import { type Coordinates, greatCircleKm } from "../../src/domain/geo.js";

export interface Region {
  name: string;
  /** The regional instance's operator host, e.g. http://10.0.1.5:8080. */
  url: string;
  location: Coordinates;
}

export function chooseRegion(
  candidates: readonly Region[],
  healthy: (region: string) => boolean,
  routerLocation: Coordinates,
  current: string | undefined,
): Region | undefined {
  const sticky = candidates.find((region) => region.name === current);
  if (sticky && healthy(sticky.name)) return sticky;
  let closest: Region | undefined;
  for (const region of candidates) {
    if (!healthy(region.name)) continue;
    if (
      !closest ||
      greatCircleKm(routerLocation, region.location) < greatCircleKm(routerLocation, closest.location)
    ) {
      closest = region;
    }
  }
  return closest;
}
