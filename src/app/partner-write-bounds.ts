import { inject, injectable } from "tsyringe";
import type { Clock } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";
import { TOKENS } from "../runtime/tokens.js";
import type { PartnerPrincipal } from "./principals.js";

const HOUR_MS = 3_600_000;

/**
 * Spec 8.1: "Priority-request and notify writes are additionally bounded per partner" beyond the
 * tier's write rate, with no figure given. These are ours, per registration (one client id of one
 * airline), as token buckets that hold an hour's worth and refill evenly over the hour:
 * - `notify`: 60 an hour (POST /partner/v1/passengers/{passenger_urn}/notify): a passenger hears
 *   from a partner about once a minute at most, whatever the tier's write rate allows;
 * - `priority-request`: 20 an hour (POST /partner/v1/cases/{case_urn}/priority-request): each
 *   request moves a case up the operators' list, so a partner gets a few an hour, not a flood.
 */
export const PARTNER_WRITE_BOUNDS = {
  notify: { perHour: 60 },
  "priority-request": { perHour: 20 },
} as const;

export type PartnerBoundedWrite = keyof typeof PARTNER_WRITE_BOUNDS;

export type BoundDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Takes one of a registration's bounded writes of `kind`, or says how long until one is back. */
@injectable()
export class PartnerWriteBounds {
  constructor(
    @inject(TOKENS.counters) private readonly counters: CounterStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async take(partner: PartnerPrincipal, kind: PartnerBoundedWrite): Promise<BoundDecision> {
    const { perHour } = PARTNER_WRITE_BOUNDS[kind];
    const grant = await this.counters.takeToken(`partner-${kind}:${partner.tenant}:${partner.clientId}`, {
      capacity: perHour,
      refillPerMs: perHour / HOUR_MS,
      now: this.clock.now(),
    });
    if (grant.allowed) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(grant.retryAfterMs / 1000)) };
  }
}
