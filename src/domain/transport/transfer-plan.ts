import type { PolicyTransport, TransportMode } from "../policy/policy.js";
import { type Tier } from "../policy/tiers.js";
import { uuidFromParts } from "../uuid.js";
import type { TransportDirection, VehicleType } from "./transport-segment.js";

/**
 * How a whole case's transfers are planned (spec 4.1 `POST /v1/transport/cases/{urn}/transfers/
 * request`, policy transport block of 2.4): each group's vehicle from the policy (a mode per tier,
 * a wheelchair van for special requirements), its pickup time, and shuttle groups pooled into
 * runs by `shuttleCapacity` and pickup window. Pure: the caller books the runs.
 */

/** Lead time the ride provider gets when the policy names none (`minutesBeforePickup`). */
export const DEFAULT_MINUTES_BEFORE_PICKUP = 30;
/** Seats of a shuttle when the policy names no `shuttleCapacity`. */
export const DEFAULT_SHUTTLE_CAPACITY = 8;
/** Groups whose pickups fall within this many minutes of a run's first pickup may share the run. */
export const PICKUP_WINDOW_MINUTES = 30;
/**
 * The return leg leaves the hotel this long before the re-accommodated flight departs: the spec
 * gives no figure; three hours covers the drive, check-in and security at an international airport.
 */
export const RETURN_PICKUP_BEFORE_DEPARTURE_MINUTES = 180;

/**
 * Special requirements that need a wheelchair van: the word itself, or the IATA SSR codes for
 * wheelchair assistance (WCHR, WCHS, WCHC) and for travelling with one's own (WCBD, WCBW, WCMP).
 */
const WHEELCHAIR = /wheelchair|\bWCH[RSC]\b|\bWC(BD|BW|MP|LB)\b/i;

export function needsWheelchairVan(specialRequirements: readonly string[]): boolean {
  return specialRequirements.some((r) => WHEELCHAIR.test(r));
}

/** Most generous first: a group travelling in several tiers rides in the best its members are owed. */
const MODE_RANK: Readonly<Record<TransportMode, number>> = { PRIVATE_CAR: 3, TAXI: 2, SHUTTLE: 1 };

/** The policy's mode for a tier: its `perTier` entry, else the default `mode`. */
export function modeForTier(transport: PolicyTransport, tier: Tier | undefined): TransportMode {
  return (tier && transport.perTier[tier]) || transport.mode;
}

/** The vehicle a group rides in: a wheelchair van when a passenger needs one, else the best mode of its tiers. */
export function vehicleForGroup(
  transport: PolicyTransport,
  tiers: readonly (Tier | undefined)[],
  specialRequirements: readonly string[],
): VehicleType {
  if (needsWheelchairVan(specialRequirements)) return "WHEELCHAIR_VAN";
  const modes = (tiers.length > 0 ? tiers : [undefined]).map((tier) => modeForTier(transport, tier));
  return modes.reduce((best, mode) => (MODE_RANK[mode] > MODE_RANK[best] ? mode : best));
}

/**
 * The pickup time of a leg. To the hotel: as soon as the provider can come (`minutesBeforePickup`
 * after the request). To the airport: RETURN_PICKUP_BEFORE_DEPARTURE_MINUTES before the next
 * flight, but never sooner than the provider can come.
 */
export function pickupTimeFor(
  direction: TransportDirection,
  transport: PolicyTransport,
  now: Date,
  nextDeparture: string | undefined,
): Date {
  const earliest = new Date(
    now.getTime() + (transport.minutesBeforePickup ?? DEFAULT_MINUTES_BEFORE_PICKUP) * 60_000,
  );
  if (direction === "AIRPORT_TO_HOTEL" || !nextDeparture) return earliest;
  const beforeFlight = new Date(Date.parse(nextDeparture) - RETURN_PICKUP_BEFORE_DEPARTURE_MINUTES * 60_000);
  return beforeFlight > earliest ? beforeFlight : earliest;
}

/** One group's leg, as the plan sees it. */
export interface TransferLeg {
  groupId: string;
  direction: TransportDirection;
  vehicleType: VehicleType;
  passengers: number;
  pickupLocation: string;
  dropoffLocation: string;
  /** ISO 8601 UTC. */
  pickupAt: string;
}

/** One ride to book: a shuttle run shared by several groups, or one group's own vehicle. */
export interface PlannedRide {
  /** Derived from the case and the groups it carries, so planning again names the same ride. */
  poolId: string;
  direction: TransportDirection;
  vehicleType: VehicleType;
  pickupLocation: string;
  pickupAt: string;
  passengers: number;
  legs: TransferLeg[];
}

/**
 * Plans the rides of a case's legs. Shuttle legs with the same direction and pickup point share
 * runs: in pickup order, a run takes the legs picked up within PICKUP_WINDOW_MINUTES of its first
 * one while seats remain (`capacity`); a group is never split, and a group larger than a shuttle
 * gets a run of its own. A run leaves to the hotel when its last group is there, and to the airport
 * when its first group must leave, so nobody misses a flight. Every other leg is a ride of its own.
 */
export function planRides(caseUrn: string, legs: readonly TransferLeg[], capacity: number): PlannedRide[] {
  const own = legs.filter((leg) => leg.vehicleType !== "SHUTTLE").map((leg) => ride(caseUrn, [leg]));
  const shuttles = [...legs.filter((leg) => leg.vehicleType === "SHUTTLE")].sort(
    (a, b) =>
      a.direction.localeCompare(b.direction) ||
      a.pickupLocation.localeCompare(b.pickupLocation) ||
      Date.parse(a.pickupAt) - Date.parse(b.pickupAt) ||
      a.groupId.localeCompare(b.groupId),
  );
  const runs: TransferLeg[][] = [];
  for (const leg of shuttles) {
    const open = runs.find((run) => {
      const first = run[0]!;
      const seated = run.reduce((sum, l) => sum + l.passengers, 0);
      return (
        first.direction === leg.direction &&
        first.pickupLocation === leg.pickupLocation &&
        Date.parse(leg.pickupAt) - Date.parse(first.pickupAt) <= PICKUP_WINDOW_MINUTES * 60_000 &&
        seated + leg.passengers <= capacity
      );
    });
    if (open) open.push(leg);
    else runs.push([leg]);
  }
  return [...runs.map((run) => ride(caseUrn, run)), ...own];
}

function ride(caseUrn: string, legs: TransferLeg[]): PlannedRide {
  const first = legs[0]!;
  const times = legs.map((l) => Date.parse(l.pickupAt));
  const pickupAt = new Date(
    first.direction === "AIRPORT_TO_HOTEL" ? Math.max(...times) : Math.min(...times),
  ).toISOString();
  return {
    poolId: uuidFromParts(
      "urn:transport-pool:",
      caseUrn,
      first.direction,
      ...legs.map((l) => l.groupId).sort(),
    ),
    direction: first.direction,
    vehicleType: first.vehicleType,
    pickupLocation: first.pickupLocation,
    pickupAt,
    passengers: legs.reduce((sum, l) => sum + l.passengers, 0),
    legs,
  };
}

/** Where a leg starts and ends: the airport's arrivals, and the hotel by name and address. */
export function legEndpoints(
  direction: TransportDirection,
  airport: string,
  hotel: { name: string; address: string },
): { pickupLocation: string; dropoffLocation: string } {
  const airportPoint = `${airport} airport, arrivals curb`;
  const hotelPoint = `${hotel.name}, ${hotel.address}`;
  return direction === "AIRPORT_TO_HOTEL"
    ? { pickupLocation: airportPoint, dropoffLocation: hotelPoint }
    : { pickupLocation: hotelPoint, dropoffLocation: `${airport} airport, departures` };
}
