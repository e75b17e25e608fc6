/**
 * A ride provider's HTTP API behind the `RideProvider` port: the simulator of
 * services/vendor-sim/ride-provider.ts on the demo (in process, or over HTTP at the vendor-sim
 * app), a live provider with the same API otherwise. Each call goes through a retry of transient
 * failures (spec part 7: 5xx, timeouts, network errors, 429) and a circuit breaker (503
 * `failedDomain: transport` while open); refusals are permanent `VendorError`s carrying the
 * provider's code (e.g. NO_VEHICLE_AVAILABLE).
 *
 *   POST /v1/quotes                 {vehicleType, passengers, pickupLocation, dropoffLocation, pickupAt, specialRequirements}
 *   POST /v1/rides                  the same, with reference and callbackUrl; Idempotency-Key: <reference>
 *   POST /v1/rides/<id>/amend       {pickupAt?, vehicleType?}
 *   POST /v1/rides/<id>/cancel      {reason}
 *   Authorization: Bearer <api key>; errors are {error: {code, message}}
 */
import type { Clock } from "../runtime/clock.js";
import { CircuitBreaker, DEFAULT_BREAKER } from "./circuit-breaker.js";
import { type RetryPolicy, withRetry } from "./retry.js";
import type {
  Ride,
  RideBookingRequest,
  RideChange,
  RideProvider,
  RideQuote,
  RideRequest,
} from "./ride-provider.js";
import { MALFORMED_RESPONSE, NETWORK_ERROR, TIMEOUT, VendorError } from "./vendor-error.js";
import type { VendorTransport } from "./vendor-transport.js";
import { IDEMPOTENCY_KEY, readJson, type WireRequest } from "./wire.js";

/** A ride is worth a few seconds of retrying; a quote or booking is not time-boxed like a search. */
export const RIDE_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 200,
  rateLimitedBaseDelayMs: 1_000,
  maxDelayMs: 4_000,
};

export interface RideProviderClientOptions {
  id: string;
  transport: VendorTransport;
  apiKey: string;
  clock: Clock;
  retry?: RetryPolicy;
  timeoutMs?: number;
  random?: () => number;
}

export class RideProviderClient implements RideProvider {
  readonly id: string;
  private readonly breaker: CircuitBreaker;

  constructor(private readonly options: RideProviderClientOptions) {
    this.id = options.id;
    this.breaker = new CircuitBreaker(options.id, "transport", options.clock, DEFAULT_BREAKER);
  }

  quote(request: RideRequest): Promise<RideQuote> {
    return this.call({ method: "POST", path: "/v1/quotes", body: request }) as Promise<RideQuote>;
  }

  book(request: RideBookingRequest): Promise<Ride> {
    return this.call({
      method: "POST",
      path: "/v1/rides",
      body: request,
      headers: { [IDEMPOTENCY_KEY]: request.reference },
    }) as Promise<Ride>;
  }

  amend(rideId: string, change: RideChange): Promise<Ride> {
    return this.call({
      method: "POST",
      path: `/v1/rides/${encodeURIComponent(rideId)}/amend`,
      body: change,
    }) as Promise<Ride>;
  }

  cancel(rideId: string, reason: string): Promise<Ride> {
    return this.call({
      method: "POST",
      path: `/v1/rides/${encodeURIComponent(rideId)}/cancel`,
      body: { reason },
    }) as Promise<Ride>;
  }

  private call(request: {
    method: "POST";
    path: string;
    body: unknown;
    headers?: Record<string, string>;
  }): Promise<unknown> {
    const { clock, retry = RIDE_RETRY, random } = this.options;
    return withRetry(
      () =>
        this.breaker.run(
          () => this.attempt(request),
          (error) => error instanceof VendorError && error.retryable,
        ),
      retry,
      clock,
      random,
    );
  }

  private async attempt(request: {
    method: "POST";
    path: string;
    body: unknown;
    headers?: Record<string, string>;
  }): Promise<unknown> {
    const vendor = this.id;
    const wire: WireRequest = {
      method: request.method,
      path: request.path,
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        authorization: `Bearer ${this.options.apiKey}`,
        ...request.headers,
      },
      body: JSON.stringify(request.body),
    };
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? 10_000);
    let response: Awaited<ReturnType<VendorTransport["send"]>>;
    try {
      response = await this.options.transport.send(wire, signal);
    } catch {
      throw new VendorError({ vendor, code: signal.aborted ? TIMEOUT : NETWORK_ERROR });
    }
    const json = readJson(response) as { error?: { code?: unknown; message?: unknown } } | undefined;
    if (response.status >= 200 && response.status < 300) {
      if (json === undefined) throw new VendorError({ vendor, code: MALFORMED_RESPONSE });
      return json;
    }
    const retryAfter = Number(response.headers["retry-after"]);
    throw new VendorError({
      vendor,
      httpStatus: response.status,
      // A 5xx or 429 is classified by its status whatever the envelope says.
      ...(response.status < 500 && response.status !== 429 && typeof json?.error?.code === "string"
        ? { code: json.error.code }
        : {}),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
      ...(typeof json?.error?.message === "string" ? { message: `${vendor}: ${json.error.message}` } : {}),
    });
  }
}
