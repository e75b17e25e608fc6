/**
 * The ride provider's progress callbacks (spec 6.3 inbound vendor events, 4.4 "transport ETA"),
 * signed as every inbound vendor webhook is (src/domain/notification-callbacks.ts): HMAC-SHA256
 * over `timestamp + "." + raw body` in `X-Vendor-Signature`, the provider's event id in
 * `X-Vendor-Event-Id` as the dedupe key.
 */
export const RIDE_CALLBACK_TYPES = ["driver-assigned", "eta", "completed", "cancelled"] as const;
export type RideCallbackType = (typeof RIDE_CALLBACK_TYPES)[number];

export interface RideCallback {
  eventId: string;
  rideId: string;
  /** Our reference of the ride, as the booking gave it. */
  reference: string;
  type: RideCallbackType;
  occurredAt: string;
  etaAt?: string;
  vehicle?: string;
  driver?: string;
  /** `cancelled`: the provider's reason code. */
  code?: string;
}
