import { DomainError } from "./domain-error.js";

/**
 * An airport freeze: a system policy that stops rooms being granted at one airport of an airline
 * (spec 3.1: REQUESTED demand moves to REJECTED "by reject or system policy (e.g. airport freeze)",
 * and it is logged). While an airport is frozen, demand of its cases is rejected in the system's
 * name as soon as it is requested, REQUESTED demand is rejected when the freeze is set, and no
 * supervisor may approve demand there. Lifting the freeze rejects nothing more; rejected demand
 * stays rejected, and a new INITIAL demand may follow it.
 */
export interface AirportFreeze {
  tenant: string;
  /** IATA code of the frozen airport (a case's airport is its flight's origin). */
  airport: string;
  reason: string;
  frozenBy: string;
  frozenAt: string;
}

/** Who rejects demand in a freeze's name: the system policy, never a user. */
export const AIRPORT_FREEZE_ACTOR = "urn:system:airport-freeze";

/** The logged decision a freeze makes on REQUESTED demand (spec 3.1). */
export function freezeRejection(freeze: Pick<AirportFreeze, "airport" | "reason">): {
  by: string;
  reason: string;
} {
  return { by: AIRPORT_FREEZE_ACTOR, reason: `Airport ${freeze.airport} is frozen: ${freeze.reason}` };
}

/** A supervisor cannot approve demand at a frozen airport: the system policy has the last word. */
export function assertNotFrozen(
  freeze: Pick<AirportFreeze, "airport" | "reason" | "frozenAt"> | undefined,
): void {
  if (!freeze) return;
  throw new DomainError(
    "conflict",
    "airport-frozen",
    `Airport ${freeze.airport} is frozen: ${freeze.reason}`,
    {
      airport: freeze.airport,
      frozenAt: freeze.frozenAt,
    },
  );
}
