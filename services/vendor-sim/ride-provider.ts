import { money } from "../../src/domain/money.js";
import { SeededRandom } from "../../src/domain/seeded-random.js";
import type { RideCallback, RideCallbackType } from "../../src/domain/transport/ride-callbacks.js";
import { VEHICLE_TYPES, type VehicleType } from "../../src/domain/transport/transport-segment.js";
import { randomUuid } from "../../src/domain/uuid.js";
import type { Clock } from "../../src/runtime/clock.js";
import type { Ride } from "../../src/vendors/ride-provider.js";
import {
  jsonResponse,
  type WireEndpoint,
  type WireRequest,
  type WireResponse,
} from "../../src/vendors/wire.js";
import { type FaultKind, FaultInjector, type FaultSettings } from "./fault-injection.js";
import { type CallbackPoster, deliverSignedCallback, httpPoster } from "./signed-callback.js";
import { ConnectionReset } from "./simulated-failure.js";

export interface RideProviderSettings {
  id: string;
  apiKey: string;
  callbackSecret: string;
  dispatcherPhone: string;
}

/** The demo provider's settings: the same on every start, as the other simulated vendors' are. */
export const DEMO_RIDE_PROVIDER: RideProviderSettings = {
  id: "rides",
  apiKey: "demo-rides-api-key",
  callbackSecret: "demo-rides-callback-secret",
  dispatcherPhone: "+15550100999",
};

/** Price of a ride by vehicle, in USD minor units, plus a share per passenger for a shuttle. */
const BASE_FARE_MINOR: Record<VehicleType, number> = {
  SHUTTLE: 1_500,
  PRIVATE_CAR: 6_500,
  TAXI: 4_500,
  WHEELCHAIR_VAN: 8_000,
};
const SHUTTLE_SEAT_MINOR = 500;
/** How far ahead of the pickup the assigned driver is announced. */
const ETA_AHEAD_MS = 5 * 60_000;
const RETRY_AFTER_SECONDS = 1;

export interface SimulatedRide extends Ride {
  callbackUrl: string;
  passengers: number;
  pickupLocation: string;
  dropoffLocation: string;
  specialRequirements: string[];
  callbacks: { eventId: string; type: RideCallbackType; status: number | null; tries: number }[];
}

export interface RideProviderSimulatorOptions {
  clock: Clock;
  seed?: string;
  faults?: FaultSettings;
  post?: CallbackPoster;
  settings?: RideProviderSettings;
}

const DRIVERS = ["A. Moreau", "B. Okafor", "C. Lindqvist", "D. Haddad", "E. Tanaka", "F. Rossi"];

export class RideProviderSimulator implements WireEndpoint {
  readonly id: string;
  readonly faults: FaultInjector;
  readonly settings: RideProviderSettings;
  private readonly clock: Clock;
  private readonly random: SeededRandom;
  private readonly post: CallbackPoster;
  private readonly rides = new Map<string, SimulatedRide>();
  private readonly byReference = new Map<string, string>();
  private declines = 0;
  /** Callbacks under way, so a test can wait for them. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(options: RideProviderSimulatorOptions) {
    this.settings = options.settings ?? DEMO_RIDE_PROVIDER;
    this.id = this.settings.id;
    this.clock = options.clock;
    this.random = new SeededRandom(`${options.seed ?? "rides"}:drivers`);
    this.faults = new FaultInjector(`${options.seed ?? "rides"}:faults`, options.faults);
    this.post = options.post ?? httpPoster;
  }

  async handle(request: WireRequest): Promise<WireResponse> {
    const path = request.path.split("?")[0]!;
    await this.wait(this.faults.latencyMs());
    const operation = path === "/v1/quotes" ? "search" : path.endsWith("/cancel") ? "cancel" : "book";
    const refusal = await this.infrastructureFault(this.faults.draw(operation, "infrastructure"));
    if (refusal) return refusal;
    if (request.headers.authorization !== `Bearer ${this.settings.apiKey}`) {
      return error(401, "UNAUTHORIZED", "Unknown API key");
    }
    const body = parse(request.body);
    if (request.method === "POST" && path === "/v1/quotes") return this.quote(body);
    if (request.method === "POST" && path === "/v1/rides") return this.book(body);
    const action = /^\/v1\/rides\/([^/]+)(?:\/(amend|cancel))?$/.exec(path);
    const ride = action && this.rides.get(decodeURIComponent(action[1]!));
    if (!action) return error(404, "NOT_FOUND", `No route ${request.method} ${path}`);
    if (!ride) return error(404, "RIDE_NOT_FOUND", "No such ride");
    if (request.method === "GET" && !action[2]) return jsonResponse(200, rideOf(ride));
    if (request.method === "POST" && action[2] === "amend") return this.amend(ride, body);
    if (request.method === "POST" && action[2] === "cancel") return this.cancel(ride);
    return error(404, "NOT_FOUND", `No route ${request.method} ${path}`);
  }

  // Test and demo controls.

  /** The next `times` bookings are refused with NO_VEHICLE_AVAILABLE. */
  declineNext(times = 1): void {
    this.declines += times;
  }

  failNext(kind: FaultKind, times = 1): void {
    this.faults.failNext(kind, times);
  }

  configureFaults(settings: FaultSettings): void {
    this.faults.configure(settings);
  }

  ride(rideId: string): SimulatedRide | undefined {
    return this.rides.get(rideId);
  }

  /** Every ride booked, oldest first. */
  booked(): SimulatedRide[] {
    return [...this.rides.values()];
  }

  /** The vehicle is now expected at `etaAt`: reported to the ride's callback URL. */
  reportEta(rideId: string, etaAt: string): Promise<boolean> {
    const ride = this.rides.get(rideId);
    if (ride?.status !== "CONFIRMED") return Promise.resolve(false);
    ride.etaAt = etaAt;
    return this.callBack(ride, "eta", { etaAt }).then(() => true);
  }

  complete(rideId: string): Promise<boolean> {
    const ride = this.rides.get(rideId);
    if (ride?.status !== "CONFIRMED") return Promise.resolve(false);
    ride.status = "COMPLETED";
    return this.callBack(ride, "completed", {}).then(() => true);
  }

  /** The provider drops the ride on its side (a breakdown): reported as `cancelled` with the code. */
  cancelByProvider(rideId: string, code = "VEHICLE_BREAKDOWN"): Promise<boolean> {
    const ride = this.rides.get(rideId);
    if (ride?.status !== "CONFIRMED") return Promise.resolve(false);
    ride.status = "CANCELLED";
    return this.callBack(ride, "cancelled", { code }).then(() => true);
  }

  /** Resolves once every callback sent so far has been answered (or given up). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private quote(body: Record<string, unknown>): WireResponse {
    const input = rideInput(body);
    if (!input)
      return error(400, "INVALID_REQUEST", "vehicleType, passengers, pickup and dropoff are required");
    return jsonResponse(200, {
      quoteId: randomUuid("quote-"),
      price: priceOf(input.vehicleType, input.passengers),
      vehicleType: input.vehicleType,
      expiresAt: new Date(this.clock.now() + 15 * 60_000).toISOString(),
    });
  }

  private book(body: Record<string, unknown>): WireResponse {
    const input = rideInput(body);
    const { reference, callbackUrl } = body;
    if (!input || typeof reference !== "string" || !reference || typeof callbackUrl !== "string") {
      return error(400, "INVALID_REQUEST", "a ride, a reference and a callbackUrl are required");
    }
    const known = this.byReference.get(reference);
    if (known) return jsonResponse(200, rideOf(this.rides.get(known)!));
    if (this.declines > 0) {
      this.declines--;
      return error(409, "NO_VEHICLE_AVAILABLE", `No ${input.vehicleType} available for that pickup`);
    }
    const ride: SimulatedRide = {
      rideId: randomUuid("ride-"),
      reference,
      status: "CONFIRMED",
      ...input,
      vehicle: null,
      driver: null,
      dispatcherPhone: this.settings.dispatcherPhone,
      etaAt: null,
      price: priceOf(input.vehicleType, input.passengers),
      callbackUrl,
      callbacks: [],
    };
    this.rides.set(ride.rideId, ride);
    this.byReference.set(reference, ride.rideId);
    // A driver is assigned after the answer, as a dispatcher does.
    this.clock.setTimer(() => this.assignDriver(ride), 0);
    return jsonResponse(201, rideOf(ride));
  }

  private amend(ride: SimulatedRide, body: Record<string, unknown>): WireResponse {
    if (ride.status !== "CONFIRMED") return error(409, "RIDE_NOT_CHANGEABLE", `The ride is ${ride.status}`);
    const { pickupAt, vehicleType } = body;
    if (pickupAt !== undefined && (typeof pickupAt !== "string" || Number.isNaN(Date.parse(pickupAt))))
      return error(400, "INVALID_REQUEST", "pickupAt must be a timestamp");
    if (vehicleType !== undefined && !VEHICLE_TYPES.includes(vehicleType as VehicleType))
      return error(400, "INVALID_REQUEST", "unknown vehicleType");
    if (typeof pickupAt === "string") ride.pickupAt = new Date(pickupAt).toISOString();
    if (vehicleType !== undefined && vehicleType !== ride.vehicleType) {
      ride.vehicleType = vehicleType as VehicleType;
      ride.price = priceOf(ride.vehicleType, ride.passengers);
      this.dispatch(ride);
    }
    ride.etaAt = new Date(Date.parse(ride.pickupAt) - ETA_AHEAD_MS).toISOString();
    return jsonResponse(200, rideOf(ride));
  }

  private cancel(ride: SimulatedRide): WireResponse {
    if (ride.status === "COMPLETED") return error(409, "RIDE_NOT_CHANGEABLE", "The ride is COMPLETED");
    ride.status = "CANCELLED";
    return jsonResponse(200, rideOf(ride));
  }

  /** A driver and vehicle of the ride's type, with an ETA a little before the pickup. */
  private dispatch(ride: SimulatedRide): void {
    const plate = `${String.fromCharCode(65 + this.random.int(0, 25))}${this.random.int(100, 999)}-${this.random.int(10, 99)}`;
    ride.vehicle = `${ride.vehicleType.replace("_", " ").toLowerCase()} ${plate}`;
    ride.driver = this.random.pick(DRIVERS);
    ride.etaAt = new Date(Date.parse(ride.pickupAt) - ETA_AHEAD_MS).toISOString();
  }

  private assignDriver(ride: SimulatedRide): void {
    if (ride.status !== "CONFIRMED") return;
    this.dispatch(ride);
    void this.callBack(ride, "driver-assigned", {
      etaAt: ride.etaAt!,
      vehicle: ride.vehicle!,
      driver: ride.driver!,
    });
  }

  private callBack(
    ride: SimulatedRide,
    type: RideCallbackType,
    extra: Pick<RideCallback, "etaAt" | "vehicle" | "driver" | "code">,
  ): Promise<void> {
    const callback: RideCallback = {
      eventId: randomUuid(`${this.id}-evt-`),
      rideId: ride.rideId,
      reference: ride.reference,
      type,
      occurredAt: new Date(this.clock.now()).toISOString(),
      ...extra,
    };
    const sent = { eventId: callback.eventId, type, status: null as number | null, tries: 0 };
    ride.callbacks.push(sent);
    const delivery = deliverSignedCallback(
      {
        url: ride.callbackUrl,
        eventId: callback.eventId,
        body: JSON.stringify(callback),
        secret: this.settings.callbackSecret,
      },
      sent,
      { now: () => this.clock.now(), post: this.post, wait: (ms) => this.wait(ms) },
    );
    this.pending.add(delivery);
    return delivery.finally(() => this.pending.delete(delivery));
  }

  private async infrastructureFault(fault: FaultKind | undefined): Promise<WireResponse | undefined> {
    switch (fault) {
      case "connection-reset":
        throw new ConnectionReset(this.id);
      case "timeout":
        await this.wait(this.faults.timeoutHoldMs());
        return error(504, "GATEWAY_TIMEOUT", "The dispatch system did not answer");
      case "server-error":
        return error(500, "INTERNAL_ERROR", "Injected server error");
      case "unavailable":
        return error(503, "SERVICE_UNAVAILABLE", "Injected outage");
      case "rate-limited":
        return error(429, "TOO_MANY_REQUESTS", "Slow down", { "retry-after": String(RETRY_AFTER_SECONDS) });
      default:
        return undefined;
    }
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => this.clock.setTimer(resolve, ms));
  }
}

function error(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return jsonResponse(status, { error: { code, message } }, headers);
}

function priceOf(vehicleType: VehicleType, passengers: number) {
  const seats = vehicleType === "SHUTTLE" ? passengers * SHUTTLE_SEAT_MINOR : 0;
  return money(BASE_FARE_MINOR[vehicleType] + seats, "USD");
}

function rideOf(ride: SimulatedRide): Ride {
  return {
    rideId: ride.rideId,
    reference: ride.reference,
    status: ride.status,
    vehicleType: ride.vehicleType,
    pickupAt: ride.pickupAt,
    vehicle: ride.vehicle,
    driver: ride.driver,
    dispatcherPhone: ride.dispatcherPhone,
    etaAt: ride.etaAt,
    price: ride.price,
  };
}

function rideInput(body: Record<string, unknown>) {
  const {
    vehicleType,
    passengers,
    pickupLocation,
    dropoffLocation,
    pickupAt,
    specialRequirements = [],
  } = body;
  if (
    !VEHICLE_TYPES.includes(vehicleType as VehicleType) ||
    !Number.isInteger(passengers) ||
    (passengers as number) < 1 ||
    typeof pickupLocation !== "string" ||
    typeof dropoffLocation !== "string" ||
    typeof pickupAt !== "string" ||
    Number.isNaN(Date.parse(pickupAt)) ||
    !Array.isArray(specialRequirements) ||
    specialRequirements.some((r) => typeof r !== "string")
  )
    return undefined;
  return {
    vehicleType: vehicleType as VehicleType,
    passengers: passengers as number,
    pickupLocation,
    dropoffLocation,
    pickupAt: new Date(pickupAt).toISOString(),
    specialRequirements: specialRequirements as string[],
  };
}

function parse(body: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body || "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
