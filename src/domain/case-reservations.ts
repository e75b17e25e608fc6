import { type CaseRecord, revised } from "./case.js";
import { assertCaseOpen, type CaseTransition, closeWhenCheckedOut } from "./case-lifecycle.js";
import { groupNotFound } from "./passenger-groups.js";

/**
 * The case's view of its reservations (spec 2.1 reservations[], 3.3): the status the booking flow
 * reports per reservation. Once every reservation is CHECKED_OUT the case closes by itself.
 */

/** The booking state of one group's reservation, as the booking flow reports it. */
export interface ReservationRecord {
  reservationUrn: string;
  groupId: string;
  status: string;
  /** Local dates of the stay (YYYY-MM-DD), when known. */
  checkIn?: string;
  checkOut?: string;
  updatedAt: string;
}

export type ReservationReport = Omit<ReservationRecord, "updatedAt">;

export type ReservationDecision =
  | { changed: false }
  | {
      changed: true;
      record: CaseRecord;
      reservations: Record<string, ReservationRecord>;
      /** The automatic close, when this report checked out the last reservation. */
      closing?: CaseTransition;
    };

/**
 * Records a reported status. A repeat of the status already recorded changes nothing, even after
 * the case closed, so the reporter's retries stay harmless; anything else needs an open case and a
 * group of it.
 */
export function recordReservation(
  record: CaseRecord,
  reservations: Readonly<Record<string, ReservationRecord>>,
  report: ReservationReport,
  now: Date,
): ReservationDecision {
  const known = reservations[report.reservationUrn];
  if (known && known.status === report.status && known.groupId === report.groupId) return { changed: false };
  assertCaseOpen(record);
  if (!record.passengerGroups.some((g) => g.id === report.groupId)) throw groupNotFound(report.groupId);
  const next = {
    ...reservations,
    [report.reservationUrn]: {
      reservationUrn: report.reservationUrn,
      groupId: report.groupId,
      status: report.status,
      ...(report.checkIn ? { checkIn: report.checkIn } : {}),
      ...(report.checkOut ? { checkOut: report.checkOut } : {}),
      updatedAt: now.toISOString(),
    },
  };
  const updated = revised(record, now);
  const closing = closeWhenCheckedOut(updated, Object.values(next), now);
  return { changed: true, record: updated, reservations: next, ...(closing ? { closing } : {}) };
}
