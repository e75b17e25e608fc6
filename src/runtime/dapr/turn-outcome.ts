import { DomainError, type DomainErrorShape } from "../../domain/domain-error.js";

/**
 * The body of every actor method call through the sidecar. The argument is wrapped because the
 * SDK spreads an array body into several arguments and turns an empty body into `""`.
 */
export interface InvocationRequest {
  arg?: unknown;
  /** Set by ActorRuntime.look: the turn must change nothing, or it fails uncommitted. */
  look?: true;
}

/**
 * What a Dapr actor method answers. A failed turn is a value, not a throw: the SDK would flatten a
 * thrown error into a bare 500, and the caller needs a DomainError back with its kind and code.
 */
export type TurnOutcome =
  | { ok: true; value?: unknown }
  | { ok: false; error: { message: string; domain?: DomainErrorShape } };

export function failedOutcome(error: unknown): TurnOutcome {
  if (error instanceof DomainError)
    return { ok: false, error: { message: error.message, domain: error.toShape() } };
  return { ok: false, error: { message: error instanceof Error ? error.message : String(error) } };
}

export function isTurnOutcome(value: unknown): value is TurnOutcome {
  return typeof value === "object" && value !== null && typeof (value as TurnOutcome).ok === "boolean";
}

/** The caller's side: the turn's value, or its error thrown again (a DomainError stays one). */
export function unwrapOutcome(outcome: TurnOutcome): unknown {
  if (outcome.ok) return outcome.value;
  const { domain, message } = outcome.error;
  throw domain && DomainError.isShape(domain) ? DomainError.fromShape(domain) : new Error(message);
}
