/**
 * Rate limits of spec 8.1 as token buckets in the shared CounterStore (memory for one process,
 * Redis for several), refilled by the injected Clock:
 * - operator: per tenant per route, 600 reads / 120 writes a minute, bursts of 1.5x;
 * - passenger: per tenant per route, 300 / 30 a minute, bursts of 2x, and per session 30 / 10;
 * - partner: per registration, by tier: Tier-1 1200 / 240, Tier-2 600 / 120, Tier-3 60 / 10.
 * A bucket holds `rpm x burst` tokens and refills `rpm` tokens a minute, so a quiet client may
 * spend a burst at once and then settles at the rate.
 */
import type { Context } from "koa";
import type { Clock } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";
import type { Principal } from "../app/principals.js";
import { ProblemError } from "./errors.js";

export interface RatePair {
  /** Requests per minute for GET and HEAD. */
  read: number;
  /** Requests per minute for every other method. */
  write: number;
}

export interface RateLimitPolicy {
  operatorPerTenantRoute: RatePair & { burst: number };
  passengerPerTenantRoute: RatePair & { burst: number };
  passengerPerSession: RatePair;
  partnerPerRegistration: Record<1 | 2 | 3, RatePair>;
}

/** The figures of spec 8.1. */
export const SPEC_RATE_LIMITS: RateLimitPolicy = {
  operatorPerTenantRoute: { read: 600, write: 120, burst: 1.5 },
  passengerPerTenantRoute: { read: 300, write: 30, burst: 2 },
  passengerPerSession: { read: 30, write: 10 },
  partnerPerRegistration: {
    1: { read: 1200, write: 240 },
    2: { read: 600, write: 120 },
    3: { read: 60, write: 10 },
  },
};

export const RATE_LIMIT_REMAINING_HEADER = "X-RateLimit-Remaining";

const MINUTE_MS = 60_000;

export interface LimitedOperation {
  operationId: string;
  method: string;
}

export interface BucketSpec {
  key: string;
  capacity: number;
  refillPerMs: number;
}

export type RateDecision =
  | { allowed: true; remaining: number }
  | { allowed: false; remaining: 0; retryAfterSeconds: number };

export class RateLimiter {
  constructor(
    private readonly counters: CounterStore,
    private readonly clock: Clock,
    private readonly policy: RateLimitPolicy = SPEC_RATE_LIMITS,
  ) {}

  /** The buckets one request draws from, narrowest first. */
  bucketsFor(principal: Principal, operation: LimitedOperation): BucketSpec[] {
    const access = operation.method === "GET" || operation.method === "HEAD" ? "read" : "write";
    switch (principal.surface) {
      case "operator": {
        const rate = this.policy.operatorPerTenantRoute;
        return [bucket(`operator:${principal.tenant}:${operation.operationId}`, rate[access], rate.burst)];
      }
      case "passenger": {
        const session = this.policy.passengerPerSession;
        const route = this.policy.passengerPerTenantRoute;
        return [
          bucket(`passenger-session:${principal.actorUrn}:${access}`, session[access], 1),
          bucket(`passenger:${principal.tenant}:${operation.operationId}`, route[access], route.burst),
        ];
      }
      case "partner": {
        const rate = this.policy.partnerPerRegistration[principal.tier];
        return [bucket(`partner:${principal.tenant}:${principal.clientId}:${access}`, rate[access], 1)];
      }
    }
  }

  /**
   * Takes one token from each bucket in turn and stops at the first refusal, so a request refused by
   * a narrow bucket costs the wider ones nothing.
   */
  async take(principal: Principal, operation: LimitedOperation): Promise<RateDecision> {
    let remaining = Number.POSITIVE_INFINITY;
    for (const spec of this.bucketsFor(principal, operation)) {
      const grant = await this.counters.takeToken(`rate:${spec.key}`, {
        capacity: spec.capacity,
        refillPerMs: spec.refillPerMs,
        now: this.clock.now(),
      });
      if (!grant.allowed) {
        return {
          allowed: false,
          remaining: 0,
          retryAfterSeconds: Math.max(1, Math.ceil(grant.retryAfterMs / 1000)),
        };
      }
      remaining = Math.min(remaining, grant.remaining);
    }
    return { allowed: true, remaining };
  }

  /** Takes the request's tokens; sets X-RateLimit-Remaining, or throws the 429 problem. */
  async enforce(ctx: Context, principal: Principal, operation: LimitedOperation): Promise<void> {
    const decision = await this.take(principal, operation);
    ctx.set(RATE_LIMIT_REMAINING_HEADER, String(decision.remaining));
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
  }
}

function bucket(key: string, perMinute: number, burst: number): BucketSpec {
  return { key, capacity: Math.floor(perMinute * burst), refillPerMs: perMinute / MINUTE_MS };
}

export function tooManyRequests(retryAfterSeconds: number): ProblemError {
  return new ProblemError({
    status: 429,
    category: "rate-limited",
    code: "too-many-requests",
    detail: `Rate limit exceeded; retry after ${retryAfterSeconds} s`,
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/** The spec's limits multiplied by `factor` (load tests and benchmarks raise them; 1 in production). */
export function scaledRateLimits(
  factor: number,
  policy: RateLimitPolicy = SPEC_RATE_LIMITS,
): RateLimitPolicy {
  const pair = (p: RatePair): RatePair => ({ read: p.read * factor, write: p.write * factor });
  return {
    operatorPerTenantRoute: {
      ...pair(policy.operatorPerTenantRoute),
      burst: policy.operatorPerTenantRoute.burst,
    },
    passengerPerTenantRoute: {
      ...pair(policy.passengerPerTenantRoute),
      burst: policy.passengerPerTenantRoute.burst,
    },
    passengerPerSession: pair(policy.passengerPerSession),
    partnerPerRegistration: {
      1: pair(policy.partnerPerRegistration[1]),
      2: pair(policy.partnerPerRegistration[2]),
      3: pair(policy.partnerPerRegistration[3]),
    },
  };
}
