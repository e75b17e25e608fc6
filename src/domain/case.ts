import { createHash } from "node:crypto";

/**
 * The case: the unit of work opened for one disruption (spec 2.1, 3.3). This file holds the
 * record shape and the pure rules; CaseActor applies them one turn at a time.
 */
export type CaseStatus = "OPEN" | "MANUAL_REVIEW" | "CLOSED";

export interface Flight {
  number: string;
  origin: string;
  destination: string;
  scheduledDeparture: string;
  status?: string;
}

export interface NextFlight {
  number: string;
  scheduledDeparture: string;
}

export interface Passenger {
  id: string;
  firstName?: string;
  lastName: string;
  tier?: string;
  cabinClass?: string;
  loyaltyTier?: string;
  contact?: { email?: string; phone?: string; language?: string };
}

export interface PassengerGroup {
  id: string;
  pnr?: string;
  passengers: Passenger[];
}

export interface OpenCaseCommand {
  tenant: string;
  externalEventId: string;
  flight: Flight;
  nextFlight?: NextFlight;
  passengerGroups: PassengerGroup[];
  /** Who declared it: a user, service token or partner URN. */
  openedBy: string;
  correlationUrn: string;
}

export interface CaseRecord {
  urn: string;
  tenant: string;
  externalEventId: string;
  status: CaseStatus;
  flight: Flight;
  nextFlight?: NextFlight;
  passengerGroups: PassengerGroup[];
  openedBy: string;
  openedAt: string;
  updatedAt: string;
  version: number;
}

/**
 * Intake is idempotent per tenant on externalEventId, so the case id is derived from both: every
 * replay of the same disruption lands on the same case actor.
 */
export function caseIdFor(tenant: string, externalEventId: string): string {
  const digest = createHash("sha256").update(`${tenant}\u0000${externalEventId}`).digest("hex");
  return `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
}

export function caseUrnFor(tenant: string, externalEventId: string): string {
  return `urn:case:${caseIdFor(tenant, externalEventId)}`;
}

export function openCase(command: OpenCaseCommand, now: Date): CaseRecord {
  const at = now.toISOString();
  return {
    urn: caseUrnFor(command.tenant, command.externalEventId),
    tenant: command.tenant,
    externalEventId: command.externalEventId,
    status: "OPEN",
    flight: command.flight,
    ...(command.nextFlight ? { nextFlight: command.nextFlight } : {}),
    passengerGroups: command.passengerGroups,
    openedBy: command.openedBy,
    openedAt: at,
    updatedAt: at,
    version: 1,
  };
}

export function passengerCount(record: Pick<CaseRecord, "passengerGroups">): number {
  return record.passengerGroups.reduce((sum, group) => sum + group.passengers.length, 0);
}
