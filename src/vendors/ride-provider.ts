/**
 * The ride-provider port (spec 4.1 "request ground transport from a ride provider", 2.8): quotes,
 * bookings, changes and cancellations of rides between the airport and the hotels. The provider
 * reports each ride's progress (driver and vehicle, ETA, drop-off, its own cancellation) by signed
 * callbacks (src/domain/transport/ride-callbacks.ts). Failures are classified `VendorError`s.
 */
import type { Money } from "../domain/money.js";
import type { VehicleType } from "../domain/transport/transport-segment.js";

export interface RideRequest {
  vehicleType: VehicleType;
  passengers: number;
  pickupLocation: string;
  dropoffLocation: string;
  /** ISO 8601 UTC. */
  pickupAt: string;
  specialRequirements: string[];
}

export interface RideQuote {
  quoteId: string;
  price: Money;
  vehicleType: VehicleType;
  /** ISO 8601 UTC: the price holds until then. */
  expiresAt: string;
}

export interface RideBookingRequest extends RideRequest {
  /**
   * Our reference of the ride; the provider books one ride per reference, so asking again (a
   * retry, a saga activity run twice) gives back the same ride.
   */
  reference: string;
  /** Where the provider posts the ride's progress. */
  callbackUrl: string;
}

export interface Ride {
  rideId: string;
  reference: string;
  status: "CONFIRMED" | "COMPLETED" | "CANCELLED";
  vehicleType: VehicleType;
  pickupAt: string;
  vehicle: string | null;
  driver: string | null;
  dispatcherPhone: string | null;
  etaAt: string | null;
  price: Money;
}

export interface RideChange {
  pickupAt?: string;
  vehicleType?: VehicleType;
}

export interface RideProvider {
  readonly id: string;
  quote(request: RideRequest): Promise<RideQuote>;
  book(request: RideBookingRequest): Promise<Ride>;
  amend(rideId: string, change: RideChange): Promise<Ride>;
  /** Cancelling a cancelled ride answers it again. */
  cancel(rideId: string, reason: string): Promise<Ride>;
}
