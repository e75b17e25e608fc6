import type { CaseSnapshot } from "../../../actors/CaseActor.js";
import { passengerTier } from "../../domain/policy/tiers.js";
import { subCaseUrnFor } from "../../domain/sub-case.js";
import type { PassengerPrincipal } from "../principals.js";
import { DomainError } from "../../domain/domain-error.js";

/** GET /v1/me (spec 6.3): the passenger's own group within the case, and nothing of other groups. */
export interface PassengerProfile {
  caseUrn: string;
  caseStatus: string;
  flight: { number: string; origin: string; destination: string; scheduledDeparture: string };
  group: { id: string; pnr: string | null; subCaseUrn: string };
  passengers: { id: string; firstName: string | null; lastName: string; tier: string | null }[];
  /** The group's tier: its lead passenger's (a group spanning tiers goes to review at intake). */
  tier: string | null;
  /** The lead passenger's preferred language (BCP 47), when the airline sent one. */
  language: string | null;
}

/**
 * The profile a session token opens. The session names one case and group; a snapshot of any other
 * case is refused as not found rather than shown, so a token never reads beyond its own case even
 * if a caller of this function made a mistake. A group merged or split away since the session began
 * is not found either: its passengers log in again to get the group they are in now.
 */
export function passengerProfile(snapshot: CaseSnapshot, session: PassengerPrincipal): PassengerProfile {
  const record = snapshot.case;
  const group =
    record.urn === session.caseUrn && record.tenant === session.tenant
      ? record.passengerGroups.find((g) => g.id === session.groupId)
      : undefined;
  if (!group) throw groupNotFound();
  const lead = group.passengers[0];
  return {
    caseUrn: record.urn,
    caseStatus: record.status,
    flight: {
      number: record.flight.number,
      origin: record.flight.origin,
      destination: record.flight.destination,
      scheduledDeparture: record.flight.scheduledDeparture,
    },
    group: { id: group.id, pnr: group.pnr ?? null, subCaseUrn: subCaseUrnFor(record.urn, group.id) },
    passengers: group.passengers.map((p) => ({
      id: p.id,
      firstName: p.firstName ?? null,
      lastName: p.lastName,
      tier: passengerTier(p) ?? null,
    })),
    tier: (lead && passengerTier(lead)) ?? null,
    language: lead?.contact?.language ?? null,
  };
}

/** The session's group is not (or no longer) part of its case. */
export function groupNotFound(): DomainError {
  return new DomainError(
    "not-found",
    "group-not-found",
    "Your group is no longer part of this case; log in again to open the group you are in now",
  );
}
