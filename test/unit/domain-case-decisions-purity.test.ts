import { describe, expect, it } from "vitest";
import type { CaseRecord } from "../../src/domain/case.js";
import {
  amendManifest,
  mergeCaseGroups,
  regroupCase,
  splitCaseGroup,
} from "../../src/domain/case-amendment.js";
import { close, reopen, returnToFlow, toManualReview } from "../../src/domain/case-lifecycle.js";
import { raisePriority } from "../../src/domain/case-priority.js";
import { type ReservationRecord, recordReservation } from "../../src/domain/case-reservations.js";
import {
  newReviewItems,
  policyViolationDraft,
  type RaisedReviewItem,
} from "../../src/domain/case-review-items.js";
import { reaccommodateCase } from "../../src/domain/reaccommodation.js";
import { deepFreeze } from "../support/deep-freeze.js";
import { caseIn, later } from "./case-fixture.js";

/**
 * CaseActor decides its turns over the stored case itself (ActorState.peek), not over a copy: the
 * decisions must never change their inputs. Frozen inputs make any change throw, and the inputs
 * must come out as they went in.
 */

const by = "urn:user:ops-1";
const reason = "travelling together";

function stored(status: CaseRecord["status"] = "OPEN"): CaseRecord {
  return deepFreeze(caseIn(status));
}

function reservation(reservationUrn: string, groupId: string, status: string): ReservationRecord {
  return {
    reservationUrn,
    groupId,
    status,
    checkIn: "2026-11-21",
    checkOut: "2026-11-22",
    updatedAt: "2026-11-22T01:00:00.000Z",
  };
}

const checkedOut = (): Record<string, ReservationRecord> =>
  deepFreeze({
    "urn:reservation:r1": reservation("urn:reservation:r1", "ABC123", "CHECKED_OUT"),
    "urn:reservation:r2": reservation("urn:reservation:r2", "XYZ789", "CONFIRMED"),
  });

describe("the case decisions CaseActor takes over the stored case leave their inputs as they are", () => {
  it("recording a reservation, also the one that closes the case", () => {
    const record = stored();
    const reservations = checkedOut();
    const before = structuredClone({ record, reservations });

    const recorded = recordReservation(
      record,
      reservations,
      { reservationUrn: "urn:reservation:r3", groupId: "ABC123", status: "CONFIRMED" },
      later,
    );
    const closing = recordReservation(
      record,
      reservations,
      { reservationUrn: "urn:reservation:r2", groupId: "XYZ789", status: "CHECKED_OUT" },
      later,
    );

    expect(recorded).toMatchObject({ changed: true });
    expect(closing).toMatchObject({ changed: true, closing: { changed: true, to: "CLOSED" } });
    expect({ record, reservations }).toEqual(before);
  });

  it("the status moves and the priority request", () => {
    const open = stored("OPEN");
    const review = stored("MANUAL_REVIEW");
    const closed = stored("CLOSED");
    const before = structuredClone({ open, review, closed });

    expect(toManualReview(open, { by, reason }, later).changed).toBe(true);
    expect(returnToFlow(review, { by, reason }, later).changed).toBe(true);
    expect(close(open, { by, reason, role: "ADMIN" }, later).changed).toBe(true);
    expect(reopen(closed, { by, reason, role: "ADMIN" }, later).changed).toBe(true);
    expect(raisePriority(open, { by, reason }, later).changed).toBe(true);
    expect({ open, review, closed }).toEqual(before);
  });

  it("the review items a turn raises", () => {
    const record = stored();
    const existing: RaisedReviewItem[] = deepFreeze([
      { urn: "urn:review-item:old", raisedAt: later.toISOString(), ...policyViolationDraft(record, reason) },
    ]);
    const draft = deepFreeze(policyViolationDraft(record, reason));
    const before = structuredClone({ record, existing, draft });

    const raised = newReviewItems(existing, deepFreeze([{ urn: "urn:review-item:new", draft }]), "now");

    expect(raised).toHaveLength(1);
    expect({ record, existing, draft }).toEqual(before);
  });

  it("the amendments of the manifest, with the PNRs kept apart from the groups", () => {
    const record = stored();
    const apart = deepFreeze({ p9: "OLD001" });
    const before = structuredClone({ record, apart });
    const line = (id: string, pnr: string) => ({ pnr, passenger: { id, lastName: "Lee", tier: "ECONOMY" } });

    regroupCase(
      record,
      apart,
      { by, reason, groups: [{ id: "ALL", passengerIds: ["p1", "p2", "p3"] }] },
      later,
    );
    splitCaseGroup(record, apart, { by, reason, groupId: "ABC123", into: [["p1"], ["p2"]] }, later);
    mergeCaseGroups(record, apart, { by, reason, groupIds: ["ABC123", "XYZ789"] }, later);
    const amended = amendManifest(
      record,
      apart,
      {
        by,
        action: "case.passengers-uploaded",
        lines: [line("p9", "NEW001"), line("p2", "ABC123")],
        nextFlight: { number: "ZX104", scheduledDeparture: "2026-11-23T08:00:00Z" },
      },
      later,
    );

    expect(amended?.added).toEqual(["p9"]);
    expect({ record, apart }).toEqual(before);
  });

  it("reaccommodation", () => {
    const record = stored();
    const reservations = Object.values(checkedOut());
    const residents = deepFreeze(["XYZ789"]);
    const before = structuredClone({ record, reservations, residents });

    const result = reaccommodateCase(
      record,
      reservations,
      residents,
      {
        nextFlight: { number: "ZX104", scheduledDeparture: "2026-11-23T18:00:00Z" },
        utcOffsetMinutes: 0,
        buffers: { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 },
        by,
      },
      later,
    );

    expect(result.plan.groups).toHaveLength(2);
    expect({ record, reservations, residents }).toEqual(before);
  });
});
