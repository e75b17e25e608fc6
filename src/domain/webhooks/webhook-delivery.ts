import { nextAttemptAt, WEBHOOK_MAX_ATTEMPTS } from "./retry-schedule.js";

/**
 * One event's delivery to one registration (spec 6.1): a round of up to 7 attempts from its first.
 * RETRYING waits for the next attempt; DELIVERED and EXHAUSTED end the round; HELD means the
 * subscription was paused when an attempt came due, and the event waits for re-enabling. A new
 * round (re-enabled, replayed) starts from attempt 1 whatever the state.
 */
export type WebhookDeliveryStatus = "RETRYING" | "DELIVERED" | "EXHAUSTED" | "HELD";

export interface WebhookDelivery {
  clientId: string;
  eventUrn: string;
  tenant: string;
  status: WebhookDeliveryStatus;
  /** Epoch ms of the round's first attempt; the schedule counts from it. */
  firstAttemptAt: number;
  /** Attempts made in this round. */
  attempts: number;
  /** Epoch ms the next attempt is due (RETRYING). */
  nextAttemptAt: number | null;
}

export interface DeliveryKey {
  clientId: string;
  eventUrn: string;
  tenant: string;
}

/**
 * A round begins: attempt 1 is under way. Until it reports, the next attempt stands scheduled, so
 * a process that stops mid-attempt still retries on time.
 */
export function beginRound(key: DeliveryKey, now: number): WebhookDelivery {
  return {
    ...key,
    status: "RETRYING",
    firstAttemptAt: now,
    attempts: 1,
    nextAttemptAt: nextAttemptAt(now, 1) ?? null,
  };
}

/** Attempt `attempt` of the current round is under way (a retry the reminder made due). */
export function attemptStarted(delivery: WebhookDelivery, attempt: number): WebhookDelivery {
  if (delivery.status !== "RETRYING" || attempt !== delivery.attempts + 1) return delivery;
  return {
    ...delivery,
    attempts: attempt,
    nextAttemptAt: nextAttemptAt(delivery.firstAttemptAt, attempt) ?? null,
  };
}

/** How attempt `attempt` ended; a report of another attempt than the round's last is stale and changes nothing. */
export function attemptEnded(
  delivery: WebhookDelivery,
  attempt: number,
  delivered: boolean,
): WebhookDelivery {
  if (delivery.status !== "RETRYING" || attempt !== delivery.attempts) return delivery;
  if (delivered) return { ...delivery, status: "DELIVERED", nextAttemptAt: null };
  if (attempt >= WEBHOOK_MAX_ATTEMPTS) return { ...delivery, status: "EXHAUSTED", nextAttemptAt: null };
  return delivery;
}

/** The subscription is paused: the event waits for re-enabling instead of being tried again. */
export function hold(delivery: WebhookDelivery): WebhookDelivery {
  if (delivery.status !== "RETRYING") return delivery;
  return { ...delivery, status: "HELD", nextAttemptAt: null };
}
