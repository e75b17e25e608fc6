/**
 * What can go wrong at a simulated vendor, and how often: latency (fixed plus seeded jitter), random
 * failures at configured rates, and failures forced for a test with `failNext`. Deterministic under
 * a seed for the same sequence of calls.
 */
import { SeededRandom } from "../../src/domain/seeded-random.js";

/** The operations a vendor offers; a fault only strikes the operations it belongs to. */
export type VendorOperation = "token" | "search" | "book" | "cancel" | "lookup" | "reconcile";

export type FaultKind =
  /** HTTP 500. */
  | "server-error"
  /** HTTP 503. */
  | "unavailable"
  /** The vendor holds the request far longer than any client waits. */
  | "timeout"
  /** The connection drops without an answer. */
  | "connection-reset"
  /** HTTP 429 with Retry-After. */
  | "rate-limited"
  | "RATE_NOT_AVAILABLE"
  | "INVALID_PAYMENT_INFO"
  | "NON_REFUNDABLE"
  | "BOOKING_PAST_CANCELLATION_DEADLINE";

const INFRASTRUCTURE_FAULTS: readonly FaultKind[] = [
  "server-error",
  "unavailable",
  "timeout",
  "connection-reset",
  "rate-limited",
];

const BUSINESS_FAULTS: Partial<Record<VendorOperation, readonly FaultKind[]>> = {
  book: ["RATE_NOT_AVAILABLE", "INVALID_PAYMENT_INFO"],
  cancel: ["NON_REFUNDABLE", "BOOKING_PAST_CANCELLATION_DEADLINE"],
};

export interface Latency {
  fixedMs: number;
  jitterMs: number;
}

export interface FaultSettings {
  latency?: Latency;
  /** Probability per call of each fault, 0 to 1. */
  errorRates?: Partial<Record<FaultKind, number>>;
  /** How long a "timeout" holds the request before the vendor finally answers 504. */
  timeoutHoldMs?: number;
}

/**
 * Infrastructure faults strike before the vendor's application looks at the request (a load
 * balancer's 503, a dropped connection); business faults are the application's refusals, after
 * it has checked the token.
 */
export type FaultLayer = "infrastructure" | "business";

function faultApplies(kind: FaultKind, operation: VendorOperation, layer: FaultLayer): boolean {
  if (layer === "business") return (BUSINESS_FAULTS[operation] ?? []).includes(kind);
  return INFRASTRUCTURE_FAULTS.includes(kind) && !(operation === "token" && kind === "rate-limited");
}

export class FaultInjector {
  private readonly random: SeededRandom;
  private readonly forced: FaultKind[] = [];
  private settings: Required<FaultSettings>;

  constructor(seed: string, settings: FaultSettings = {}) {
    this.random = new SeededRandom(seed);
    this.settings = { latency: { fixedMs: 0, jitterMs: 0 }, errorRates: {}, timeoutHoldMs: 120_000 };
    this.configure(settings);
  }

  configure(settings: FaultSettings): void {
    this.settings = {
      latency: settings.latency ?? this.settings.latency,
      errorRates: settings.errorRates ?? this.settings.errorRates,
      timeoutHoldMs: settings.timeoutHoldMs ?? this.settings.timeoutHoldMs,
    };
  }

  /** The next call this fault applies to fails with it (queued in order when called several times). */
  failNext(kind: FaultKind, times = 1): void {
    for (let i = 0; i < times; i++) this.forced.push(kind);
  }

  /** The fault striking this call at this layer, if any: a forced one first, else one drawn at the configured rates. */
  draw(operation: VendorOperation, layer: FaultLayer): FaultKind | undefined {
    const forcedAt = this.forced.findIndex((kind) => faultApplies(kind, operation, layer));
    if (forcedAt >= 0) return this.forced.splice(forcedAt, 1)[0];
    for (const [kind, rate] of Object.entries(this.settings.errorRates) as Array<[FaultKind, number]>) {
      if (rate > 0 && faultApplies(kind, operation, layer) && this.random.chance(rate)) return kind;
    }
    return undefined;
  }

  latencyMs(): number {
    const { fixedMs, jitterMs } = this.settings.latency;
    return jitterMs > 0 ? fixedMs + Math.floor(this.random.next() * jitterMs) : fixedMs;
  }

  timeoutHoldMs(): number {
    return this.settings.timeoutHoldMs;
  }
}
