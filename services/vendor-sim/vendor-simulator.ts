/**
 * What every simulated vendor does the same way, whatever its wire shape: latency, injected faults,
 * OAuth client credentials at its token endpoint (30-minute tokens, 401 on an unknown or expired
 * one), routing, and the handling of every operation. A subclass supplies the shape: its paths and
 * names (`SimulatedApi`), how it reads a booking request, how it renders offers, bookings and
 * errors, its ids and amenity vocabulary. It answers wire requests, so the in-process
 * transport and the HTTP app (`createVendorSimApp`) run exactly the same code.
 */
import type { Clock } from "../../src/runtime/clock.js";
import type { ClientCredentials } from "../../src/vendors/vendor-adapter.js";
import type { VendorEndpoints } from "../../src/vendors/vendor-endpoints.js";
import {
  type WireEndpoint,
  type WireMethod,
  type WireRequest,
  type WireResponse,
  IDEMPOTENCY_KEY,
  jsonResponse,
} from "../../src/vendors/wire.js";
import type { CatalogHotel, HotelCatalog, SimulatedVendorId } from "./catalog.js";
import { presentedCredentials } from "./client-authentication.js";
import {
  type FaultKind,
  FaultInjector,
  type FaultSettings,
  type VendorOperation,
} from "./fault-injection.js";
import { ConnectionReset, SimulatedFailure } from "./simulated-failure.js";
import { TokenIssuer } from "./token-issuer.js";
import {
  type BookingOrder,
  type ChangeKind,
  type Payment,
  type PricedOffer,
  type Pricing,
  type StoredReservation,
  VendorBackend,
} from "./vendor-backend.js";

export interface VendorSimulatorOptions {
  catalog: HotelCatalog;
  clock: Clock;
  seed: number | string;
  /** API clients allowed to obtain tokens; defaults to `demoClientFor(vendor)`. */
  clients?: readonly ClientCredentials[];
  faults?: FaultSettings;
  /** Overrides every hotel's rooms per night. */
  roomsPerNight?: number;
}

/**
 * Where a simulated vendor takes each operation and what it calls the parts of its answers, as its
 * API documentation says; the simulator routes and answers from it.
 */
export interface SimulatedApi extends VendorEndpoints {
  search: VendorEndpoints["search"] & {
    /** The key of the answer's list of offers. */
    results: string;
  };
  changes: VendorEndpoints["changes"] & {
    /** The key of the answer's list of changes. */
    list: string;
    /** The keys of a change's kind and time in one entry; the booking is under `booking`. */
    kind: string;
    at: string;
    /** The vendor's word for a kind of change. */
    word(kind: ChangeKind): string;
  };
}

/** A vendor's words for the payment methods and where a booking request states them. */
export interface PaymentWording {
  /** The key of the method's word, and how a refusal names that field. */
  key: string;
  label: string;
  words: Readonly<Record<Payment["type"], string>>;
  /** The card's number and expiry as the request holds them. */
  card(payment: Record<string, unknown>): { number?: unknown; expiry?: unknown };
}

interface SimRoute {
  method: WireMethod;
  /** Matched against the path without its query string. */
  pattern: RegExp;
  operation: Exclude<VendorOperation, "token">;
  answer(request: ParsedRequest, params: string[]): WireResponse;
}

export interface ParsedRequest {
  raw: WireRequest;
  query: URLSearchParams;
  /** The JSON body, or an empty object when there is none. */
  json: Record<string, unknown>;
  /** The client the access token was issued to; empty before the token is checked. */
  clientId: string;
}

/** Statuses the business faults answer with when forced; natural refusals use the same ones. */
const BUSINESS_FAULT_STATUS: Partial<Record<FaultKind, number>> = {
  RATE_NOT_AVAILABLE: 409,
  INVALID_PAYMENT_INFO: 402,
  NON_REFUNDABLE: 409,
  BOOKING_PAST_CANCELLATION_DEADLINE: 409,
};

/** Seconds a 429 asks the client to wait. */
const RATE_LIMIT_RETRY_AFTER_SECONDS = 1;

export function demoClientFor(vendor: SimulatedVendorId): ClientCredentials {
  return { clientId: `demo-${vendor}`, clientSecret: `demo-${vendor}-secret` };
}

export abstract class VendorSimulator implements WireEndpoint {
  readonly backend: VendorBackend;
  readonly faults: FaultInjector;
  readonly tokens: TokenIssuer;
  protected readonly clock: Clock;
  /** Requests received per operation, refused ones included: what a client's throttle had to pace. */
  private readonly received = new Map<VendorOperation, number>();

  protected constructor(
    readonly id: SimulatedVendorId,
    pricing: Pricing,
    reservationPrefix: string,
    private readonly api: SimulatedApi,
    options: VendorSimulatorOptions,
  ) {
    this.tokenPath = api.token.path;
    this.routes = this.routesOf(api);
    this.clock = options.clock;
    this.backend = new VendorBackend({
      vendor: id,
      catalog: options.catalog,
      clock: options.clock,
      pricing,
      reservationPrefix,
      ...(options.roomsPerNight !== undefined ? { roomsPerNight: options.roomsPerNight } : {}),
    });
    this.faults = new FaultInjector(`${options.seed}:${id}:faults`, options.faults);
    this.tokens = new TokenIssuer(
      options.clients ?? [demoClientFor(id)],
      options.clock,
      `${options.seed}:${id}:tokens`,
    );
  }

  /** The path of this vendor's OAuth token endpoint. */
  readonly tokenPath: string;
  protected abstract errorBody(code: string, message: string): unknown;
  /** This vendor's id for a hotel of the catalog. */
  abstract hotelId(hotel: CatalogHotel): string;
  /** One search result in the vendor's shape; `rooms` is how many the search asked for. */
  protected abstract offer(offer: PricedOffer, rooms: number): unknown;
  /** A booking request read the way the vendor documents it; what it refuses is a `SimulatedFailure`. */
  protected abstract order(body: Record<string, unknown>): BookingOrder;
  protected abstract booking(reservation: StoredReservation): unknown;
  private readonly routes: readonly SimRoute[];

  async handle(request: WireRequest): Promise<WireResponse> {
    const [path = "", queryString = ""] = request.path.split("?", 2);
    const matched = this.route(request.method, path);
    const operation = matched && (matched === "token" ? "token" : matched.route.operation);
    if (operation) this.received.set(operation, (this.received.get(operation) ?? 0) + 1);
    await this.wait(this.faults.latencyMs());
    if (!matched || !operation) return this.error(404, "NOT_FOUND", `No route ${request.method} ${path}`);

    const refusal = await this.infrastructureFault(this.faults.draw(operation, "infrastructure"));
    if (refusal) return refusal;

    const parsed: ParsedRequest = {
      raw: request,
      query: new URLSearchParams(queryString),
      json: {},
      clientId: "",
    };
    try {
      parsed.json = parseBody(request);
      if (matched === "token") return this.issueToken(parsed);
      const check = this.tokens.check(request.headers.authorization);
      if (!check.valid) {
        return this.error(401, "UNAUTHORIZED", "The access token is unknown or expired", {
          "www-authenticate": `Bearer error="invalid_token", error_description="${check.reason}"`,
        });
      }
      parsed.clientId = check.clientId;
      const fault = this.faults.draw(operation, "business");
      if (fault) return this.error(BUSINESS_FAULT_STATUS[fault] ?? 409, fault, `Injected ${fault}`);
      return matched.route.answer(parsed, matched.params);
    } catch (error) {
      if (error instanceof SimulatedFailure) return this.error(error.status, error.code, error.message);
      throw error;
    }
  }

  // Test and demo controls, in the vendor's own terms where it matters.

  failNext(kind: FaultKind, times = 1): void {
    this.faults.failNext(kind, times);
  }

  configureFaults(settings: FaultSettings): void {
    this.faults.configure(settings);
  }

  /** No rooms on any night at this hotel (by catalog key) until called again with `false`. */
  markHotelFull(hotelKey: string, full = true): void {
    this.backend.inventory.markFull(hotelKey, full);
  }

  revokeTokens(): void {
    this.tokens.revokeAll();
  }

  /** How many requests of each operation reached this vendor so far (counted on arrival, before the latency). */
  requestsReceived(): Partial<Record<VendorOperation, number>> {
    return Object.fromEntries(this.received);
  }

  protected error(
    status: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
  ): WireResponse {
    return jsonResponse(status, this.errorBody(code, message), headers);
  }

  private route(
    method: WireMethod,
    path: string,
  ): "token" | { route: SimRoute; params: string[] } | undefined {
    if (path === this.tokenPath) return method === "POST" ? "token" : undefined;
    for (const route of this.routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (match) return { route, params: match.slice(1).map(decodeURIComponent) };
    }
    return undefined;
  }

  /** Reconciliation before lookup, so that a listing below the bookings path is not read as an id. */
  private routesOf({ search, bookings, changes }: SimulatedApi): SimRoute[] {
    const reservation = `${escaped(bookings.path)}/([^/]+)`;
    const { cancel } = bookings;
    return [
      {
        method: search.method,
        pattern: exactly(search.path),
        operation: "search",
        answer: (r) => this.search(r),
      },
      {
        method: "POST",
        pattern: exactly(bookings.path),
        operation: "book",
        answer: (r) =>
          this.reservationAnswer(
            201,
            this.backend.book(
              { ...this.order(r.json), ...this.clientReferenceOf(r.json) },
              r.clientId,
              idempotencyKeyOf(r),
            ),
          ),
      },
      {
        method: "GET",
        pattern: exactly(bookings.path),
        operation: "reconcile",
        answer: (r) => this.openBookings(r),
      },
      {
        method: "GET",
        pattern: exactly(changes.path),
        operation: "reconcile",
        answer: (r) => this.changes(r),
      },
      {
        method: "GET",
        pattern: new RegExp(`^${reservation}$`),
        operation: "lookup",
        answer: (_, [id]) => this.reservationAnswer(200, this.backend.lookup(id!)),
      },
      {
        method: cancel.method,
        pattern: new RegExp(`^${reservation}${cancel.method === "POST" ? escaped(cancel.path) : ""}$`),
        operation: "cancel",
        answer: (r, [id]) => this.reservationAnswer(200, this.backend.cancel(id!, idempotencyKeyOf(r))),
      },
    ];
  }

  private search(request: ParsedRequest): WireResponse {
    const { method, stay, results } = this.api.search;
    const { query, json } = request;
    const rooms = method === "GET" ? Number(query.get(stay.rooms)) : field(json, stay.rooms, "number");
    const text = (name: string) => (method === "GET" ? (query.get(name) ?? "") : field(json, name, "string"));
    const offers = this.backend.search({
      airport: text(stay.airport),
      checkIn: text(stay.checkIn),
      checkOut: text(stay.checkOut),
      rooms,
    });
    return jsonResponse(200, { [results]: offers.map((offer) => this.offer(offer, rooms)) });
  }

  private changes(request: ParsedRequest): WireResponse {
    const { since: after, list, kind, at, word } = this.api.changes;
    const changes = this.backend.changesSince(since(request.query.get(after)));
    return jsonResponse(200, {
      [list]: changes.map((change) => ({
        [kind]: word(change.kind),
        [at]: new Date(change.at).toISOString(),
        booking: this.rendered(change.reservation),
      })),
    });
  }

  private openBookings(request: ParsedRequest): WireResponse {
    const { query, list } = this.api.openBookings;
    const reservations = this.backend.openBookings(
      request.clientId,
      request.query.get(query.referencePrefix) ?? "",
      request.query.get(query.checkOutFrom) ?? "",
    );
    return jsonResponse(200, { [list]: reservations.map((r) => this.rendered(r)) });
  }

  /** The client's reference, when the booking request gives one; anything but text is refused with 400. */
  private clientReferenceOf(body: Record<string, unknown>): Pick<BookingOrder, "clientReference"> {
    const { reference } = this.api.bookings;
    return body[reference] === undefined ? {} : { clientReference: field(body, reference, "string") };
  }

  /** A booking in the vendor's shape, with the client's reference it was booked with. */
  private rendered(reservation: StoredReservation): unknown {
    return {
      ...(this.booking(reservation) as Record<string, unknown>),
      [this.api.bookings.reference]: reservation.clientReference,
    };
  }

  private reservationAnswer(status: number, reservation: StoredReservation): WireResponse {
    const { envelope } = this.api.bookings;
    const booking = this.rendered(reservation);
    return jsonResponse(status, envelope === null ? booking : { [envelope]: booking });
  }

  private async infrastructureFault(fault: FaultKind | undefined): Promise<WireResponse | undefined> {
    switch (fault) {
      case "connection-reset":
        throw new ConnectionReset(this.id);
      case "timeout":
        await this.wait(this.faults.timeoutHoldMs());
        return this.error(504, "GATEWAY_TIMEOUT", "The upstream hotel system did not answer");
      case "server-error":
        return this.error(500, "INTERNAL_ERROR", "Injected server error");
      case "unavailable":
        return this.error(503, "SERVICE_UNAVAILABLE", "Injected outage");
      case "rate-limited":
        return this.error(429, "TOO_MANY_REQUESTS", "Slow down", {
          "retry-after": String(RATE_LIMIT_RETRY_AFTER_SECONDS),
        });
      default:
        return undefined;
    }
  }

  private issueToken(request: ParsedRequest): WireResponse {
    const form = new URLSearchParams(request.raw.body ?? "");
    if (form.get("grant_type") !== "client_credentials") {
      return jsonResponse(400, { error: "unsupported_grant_type" });
    }
    const credentials = presentedCredentials(request.raw, this.api.token.authentication);
    const issued = credentials && this.tokens.issue(credentials.clientId, credentials.clientSecret);
    if (!issued) return jsonResponse(401, { error: "invalid_client" });
    return jsonResponse(200, {
      access_token: issued.accessToken,
      token_type: "Bearer",
      expires_in: issued.expiresInSeconds,
    });
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => this.clock.setTimer(resolve, ms));
  }
}

/** The request's idempotency key, scoped to its client (two clients' keys never meet). */
function idempotencyKeyOf(request: ParsedRequest): string | undefined {
  const key = request.raw.headers[IDEMPOTENCY_KEY];
  return key ? `${request.clientId}\u0000${key}` : undefined;
}

function parseBody(request: WireRequest): Record<string, unknown> {
  if (!request.body || !request.headers["content-type"]?.startsWith("application/json")) return {};
  try {
    const parsed: unknown = JSON.parse(request.body);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the same refusal as a body of the wrong shape.
  }
  throw new SimulatedFailure(400, "INVALID_REQUEST", "The body must be a JSON object");
}

function exactly(path: string): RegExp {
  return new RegExp(`^${escaped(path)}$`);
}

function escaped(path: string): string {
  return path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Reads a request field the way a strict vendor API does: wrong type, 400. */
export function field<T extends "string" | "number" | "object">(
  body: Record<string, unknown>,
  name: string,
  type: T,
): T extends "string" ? string : T extends "number" ? number : Record<string, unknown> {
  const value = body[name];
  if (typeof value !== type || value === null) {
    throw new SimulatedFailure(400, "INVALID_REQUEST", `${name} must be a ${type}`);
  }
  return value as never;
}

export function stringList(body: Record<string, unknown>, name: string): string[] {
  const value = body[name];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new SimulatedFailure(400, "INVALID_REQUEST", `${name} must be an array of strings`);
  }
  return value as string[];
}

/** A booking request's payment, in the vendor's words; another word is refused with 400. */
export function payment(body: Record<string, unknown>, wording: PaymentWording): Payment {
  const word = field(body, wording.key, "string");
  const { GUARANTEE, CARD } = wording.words;
  if (word === GUARANTEE) return { type: "GUARANTEE" };
  if (word !== CARD) {
    throw new SimulatedFailure(400, "INVALID_REQUEST", `${wording.label} must be ${GUARANTEE} or ${CARD}`);
  }
  const card = wording.card(body);
  return { type: "CARD", cardNumber: String(card.number ?? ""), expiry: String(card.expiry ?? "") };
}

/** A reconciliation interface's "changes since" parameter: an ISO timestamp, or everything when absent. */
export function since(value: string | null): number {
  if (value === null || value === "") return 0;
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new SimulatedFailure(400, "INVALID_REQUEST", "the since timestamp must be ISO 8601");
  return at;
}
