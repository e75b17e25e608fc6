/**
 * Spec 8.1 PNR-login limits, counted in fixed windows of the shared CounterStore (one count per
 * attempt, whatever its outcome, taken before the credentials are looked at):
 * - 5 attempts per 15 minutes per IP address, so one client cannot try many bookings;
 * - 10 attempts per 24 hours per PNR of a tenant, from all addresses together, so many clients
 *   cannot try one booking. Reaching it is the hard limit: the partner contact is alerted, once
 *   per window, through `onLoginLocked`.
 * Over a limit the attempt is refused with 429 and Retry-After (the seconds left in the window).
 */
import type { EventOf } from "../domain/events/catalogue.js";
import { ProblemError } from "../http/errors.js";
import type { Clock } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";
import { pnrKey } from "./passenger-directory.js";
import { randomUuid } from "../domain/uuid.js";

export interface AttemptWindow {
  max: number;
  windowMs: number;
}

export interface LoginAttemptLimits {
  perIp: AttemptWindow;
  perPnr: AttemptWindow;
}

export const SPEC_LOGIN_ATTEMPT_LIMITS: LoginAttemptLimits = {
  perIp: { max: 5, windowMs: 15 * 60 * 1000 },
  perPnr: { max: 10, windowMs: 24 * 60 * 60 * 1000 },
};

export type LoginLockedEvent = EventOf<"passenger.login-locked">;

export interface LoginAttempt {
  tenant: string;
  pnr: string;
  ip: string;
  correlationUrn: string;
}

export interface LoginAttemptsOptions {
  counters: CounterStore;
  clock: Clock;
  /** Tells the partner contact; e.g. `(event) => publishEvent(bus, event)`. */
  onLoginLocked: (event: LoginLockedEvent) => Promise<void>;
  limits?: LoginAttemptLimits;
}

export class LoginAttempts {
  private readonly limits: LoginAttemptLimits;

  constructor(private readonly options: LoginAttemptsOptions) {
    this.limits = options.limits ?? SPEC_LOGIN_ATTEMPT_LIMITS;
  }

  /**
   * Counts the attempt, or throws the 429 problem when it goes over a limit. An address already
   * over its own limit is stopped before its attempt counts against the PNR, so one noisy client
   * cannot lock a passenger out on its own.
   */
  async count(attempt: LoginAttempt): Promise<void> {
    const { counters } = this.options;
    const { perIp, perPnr } = this.limits;
    const ip = await counters.increment(`pnr-login:ip:${attempt.ip}`, 1, perIp.windowMs);
    if (ip.value > perIp.max) throw tooManyAttempts(ip.ttlMs);
    const pnrWindow = `${attempt.tenant}:${pnrKey(attempt.pnr)}`;
    const pnr = await counters.increment(`pnr-login:pnr:${pnrWindow}`, 1, perPnr.windowMs);
    if (pnr.value > perPnr.max) {
      await this.alertOncePerWindow(`pnr-login:locked-alert:${pnrWindow}`, attempt, pnr.ttlMs);
      throw tooManyAttempts(pnr.ttlMs);
    }
  }

  /** The marker lives as long as the window; a failed alert lets the next refused attempt retry it. */
  private async alertOncePerWindow(
    markerKey: string,
    attempt: LoginAttempt,
    windowLeftMs: number,
  ): Promise<void> {
    const { counters, clock, onLoginLocked } = this.options;
    if (!(await counters.setIfAbsent(markerKey, "1", windowLeftMs))) return;
    const now = clock.now();
    const event: LoginLockedEvent = {
      id: randomUuid("urn:event:"),
      type: "passenger.login-locked",
      tenant: attempt.tenant,
      occurredAt: new Date(now).toISOString(),
      correlationUrn: attempt.correlationUrn,
      data: {
        pnr: maskPnr(attempt.pnr),
        ip: attempt.ip,
        attempts: this.limits.perPnr.max,
        lockedUntil: new Date(now + windowLeftMs).toISOString(),
      },
    };
    try {
      await onLoginLocked(event);
    } catch (error) {
      await counters.delete(markerKey);
      throw error;
    }
  }
}

export function maskPnr(pnr: string): string {
  const key = pnrKey(pnr);
  if (key.length <= 2) return "*".repeat(key.length);
  return `${key[0]}${"*".repeat(key.length - 2)}${key[key.length - 1]}`;
}

function tooManyAttempts(windowLeftMs: number): ProblemError {
  const retryAfterSeconds = Math.max(1, Math.ceil(windowLeftMs / 1000));
  return new ProblemError({
    status: 429,
    category: "rate-limited",
    code: "pnr-login-attempts",
    detail: `Too many login attempts; retry after ${retryAfterSeconds} s`,
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
