/**
 * One tenant's account at one inventory vendor, behind the `InventoryVendor` port. Every call goes
 * through the same layers, in this order, whichever transport carries it:
 *
 *   retry (transient only, backoff + jitter)
 *     circuit breaker (per domain: inventory reads, booking writes)
 *       token bucket (waits for its turn on the clock)
 *         OAuth token (cached; one forced refresh on 401)
 *           per-attempt timeout, then the transport
 *
 * Answers are mapped by the vendor's adapter; failures become classified `VendorError`s.
 */
import type { HotelOffer } from "../domain/allocation/offer.js";
import type { Clock } from "../runtime/clock.js";
import {
  type BreakerSettings,
  CircuitBreaker,
  type CircuitState,
  DEFAULT_BREAKER,
} from "./circuit-breaker.js";
import { BOOKING_RETRY, type RetryPolicy, SEARCH_RETRY, withRetry } from "./retry.js";
import { timedExchange } from "./timed-exchange.js";
import { TokenBucket } from "./token-bucket.js";
import { type FetchedToken, TokenCache } from "./token-cache.js";
import type { ClientCredentials, VendorAdapter } from "./vendor-adapter.js";
import { MALFORMED_RESPONSE, VendorError } from "./vendor-error.js";
import type {
  BookingRequest,
  CancelRequest,
  HotelSearchRequest,
  InventoryVendor,
  OpenBookingsQuery,
  ReservationChange,
  VendorReservation,
} from "./vendor-port.js";
import type { VendorTransport } from "./vendor-transport.js";
import { type WireRequest, type WireResponse, readJson } from "./wire.js";

/** Inventory: search, lookup and reconciliation reads. Booking: book and cancel. */
export type VendorDomain = "inventory" | "booking";

/** Calls per second (spec 8.1: inventory search typically 10 TPS, booking typically 5 TPS). */
export type VendorLimits = Record<VendorDomain, number>;
export const DEFAULT_VENDOR_LIMITS: VendorLimits = { inventory: 10, booking: 5 };

/** Per attempt; an inventory attempt must leave room for a retry inside the 2 s search time-box. */
export const DEFAULT_TIMEOUTS_MS: Record<VendorDomain, number> = { inventory: 1_500, booking: 10_000 };

export interface VendorClientOptions {
  adapter: VendorAdapter;
  transport: VendorTransport;
  credentials: ClientCredentials;
  clock: Clock;
  limits?: Partial<VendorLimits>;
  retry?: Partial<Record<VendorDomain, RetryPolicy>>;
  breaker?: BreakerSettings;
  timeoutsMs?: Partial<Record<VendorDomain, number>>;
  /** Jitter source; tests pass a fixed one. */
  random?: () => number;
}

export class VendorClient implements InventoryVendor {
  readonly id: string;
  private readonly adapter: VendorAdapter;
  private readonly transport: VendorTransport;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly tokens: TokenCache;
  private readonly buckets: Record<VendorDomain, TokenBucket>;
  private readonly breakers: Record<VendorDomain, CircuitBreaker>;
  private readonly retry: Record<VendorDomain, RetryPolicy>;
  private readonly timeoutsMs: Record<VendorDomain, number>;

  constructor(options: VendorClientOptions) {
    const { adapter, clock } = options;
    this.id = adapter.vendor;
    this.adapter = adapter;
    this.transport = options.transport;
    this.clock = clock;
    this.random = options.random ?? Math.random;
    const limits = { ...DEFAULT_VENDOR_LIMITS, ...options.limits };
    this.buckets = {
      inventory: new TokenBucket(clock, { perSecond: limits.inventory }),
      booking: new TokenBucket(clock, { perSecond: limits.booking }),
    };
    const breaker = options.breaker ?? DEFAULT_BREAKER;
    this.breakers = {
      inventory: new CircuitBreaker(adapter.vendor, "inventory", clock, breaker),
      booking: new CircuitBreaker(adapter.vendor, "booking", clock, breaker),
    };
    this.retry = { inventory: SEARCH_RETRY, booking: BOOKING_RETRY, ...options.retry };
    this.timeoutsMs = { ...DEFAULT_TIMEOUTS_MS, ...options.timeoutsMs };
    this.tokens = new TokenCache(() => this.fetchToken(options.credentials), clock);
  }

  search(request: HotelSearchRequest): Promise<HotelOffer[]> {
    return this.call("inventory", this.adapter.searchRequest(request), (body) =>
      this.adapter.offers(body, request),
    );
  }

  book(request: BookingRequest): Promise<VendorReservation> {
    return this.call("booking", this.adapter.bookRequest(request), (body) => this.adapter.reservation(body));
  }

  cancel(request: CancelRequest): Promise<VendorReservation> {
    return this.call("booking", this.adapter.cancelRequest(request), (body) =>
      this.adapter.reservation(body),
    );
  }

  lookup(reservationId: string): Promise<VendorReservation> {
    return this.call("inventory", this.adapter.lookupRequest(reservationId), (body) =>
      this.adapter.reservation(body),
    );
  }

  reconcile(since: string): Promise<ReservationChange[]> {
    return this.call("inventory", this.adapter.reconcileRequest(since), (body) => this.adapter.changes(body));
  }

  openBookings(query: OpenBookingsQuery): Promise<VendorReservation[]> {
    return this.call("inventory", this.adapter.openBookingsRequest(query), (body) =>
      this.adapter.openBookings(body),
    );
  }

  circuitState(domain: VendorDomain): CircuitState {
    return this.breakers[domain].state();
  }

  private call<T>(domain: VendorDomain, request: WireRequest, read: (body: unknown) => T): Promise<T> {
    return withRetry(
      () => this.breakers[domain].run(() => this.attempt(domain, request, read), isRetryable),
      this.retry[domain],
      this.clock,
      this.random,
    );
  }

  private async attempt<T>(
    domain: VendorDomain,
    request: WireRequest,
    read: (body: unknown) => T,
  ): Promise<T> {
    await this.buckets[domain].take();
    const response = await this.tokens.authorized(
      (token) =>
        this.exchange(
          { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } },
          domain,
        ),
      (answer) => answer.status === 401,
    );
    if (response.status < 200 || response.status > 299) throw this.failure(response);
    try {
      return read(readJson(response));
    } catch (error) {
      throw new VendorError({
        vendor: this.id,
        code: MALFORMED_RESPONSE,
        httpStatus: response.status,
        message: `${this.id} answered something unreadable: ${(error as Error).message}`,
      });
    }
  }

  private async fetchToken(credentials: ClientCredentials): Promise<FetchedToken> {
    const response = await this.exchange(this.adapter.tokenRequest(credentials), "inventory");
    if (response.status !== 200) throw this.failure(response);
    const body = readJson(response) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof body?.access_token !== "string" || typeof body.expires_in !== "number") {
      throw new VendorError({ vendor: this.id, code: MALFORMED_RESPONSE, httpStatus: 200 });
    }
    return { accessToken: body.access_token, expiresInSeconds: body.expires_in };
  }

  /** One exchange under the domain's timeout; no answer at all becomes a transient VendorError. */
  private exchange(request: WireRequest, domain: VendorDomain): Promise<WireResponse> {
    return timedExchange(this.transport, request, this.id, this.timeoutsMs[domain], this.clock);
  }

  private failure(response: WireResponse): VendorError {
    const body = readJson(response);
    const code = this.adapter.errorCode(body) ?? oauthErrorCode(body);
    const retryAfterMs = retryAfter(response.headers["retry-after"], this.clock.now());
    return new VendorError({
      vendor: this.id,
      ...(code ? { code } : {}),
      httpStatus: response.status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      message: `${this.id} refused with HTTP ${response.status}${code ? ` ${code}` : ""}`,
    });
  }
}

/** A token endpoint's RFC 6749 error (`{"error": "invalid_client"}`), as OAUTH_INVALID_CLIENT. */
function oauthErrorCode(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | undefined)?.error;
  return typeof error === "string" ? `OAUTH_${error.toUpperCase()}` : undefined;
}

function isRetryable(error: unknown): boolean {
  return error instanceof VendorError && error.retryable;
}

/** Retry-After in seconds or as an HTTP date (RFC 9110), as milliseconds from now. */
function retryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
