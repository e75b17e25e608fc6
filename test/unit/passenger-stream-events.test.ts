import { describe, expect, it } from "vitest";
import type { EventOf } from "../../src/domain/events/catalogue.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import {
  passengerStreamMessage,
  passengerStreamOf,
  type PassengerStreamType,
} from "../../services/passenger-api/passenger-stream-events.js";

const CASE = "urn:case:0b8f3a52-6b1e-4d7f-9a0e-5c2b8d1e4f60";
const AT = "2026-11-21T22:00:00.000Z";

function event(type: PassengerStreamType, data: Record<string, unknown>): EventOf<PassengerStreamType> {
  return {
    id: "urn:event:1",
    type,
    tenant: "urn:airline:ZX",
    caseUrn: CASE,
    occurredAt: AT,
    correlationUrn: "urn:trace:1",
    data,
  } as unknown as EventOf<PassengerStreamType>;
}

describe("the passenger stream's events", () => {
  it("gives a sub-case's change without its lock holder or saga internals", () => {
    const change = event("subcase.offer-ready", {
      subCaseUrn: subCaseUrnFor(CASE, "G1"),
      caseUrn: CASE,
      groupId: "G1",
      tenant: "urn:airline:ZX",
      airport: "JFK",
      status: "OFFER_READY",
      version: 3,
      revision: 7,
      lockedBy: "urn:user:operator",
      lockExpiresAt: AT,
      sagaInstanceId: "saga-1",
      vendorErrorCode: null,
      offer: { reservationUrn: "urn:reservation:r1", voucherUrn: null, answerBy: AT },
      answer: null,
      updatedAt: AT,
    });
    expect(passengerStreamOf(change)).toBe(subCaseUrnFor(CASE, "G1"));
    expect(passengerStreamMessage(change)).toEqual({
      id: "urn:event:1",
      at: AT,
      event: "subcase.offer-ready",
      data: {
        subCaseUrn: subCaseUrnFor(CASE, "G1"),
        caseUrn: CASE,
        groupId: "G1",
        status: "OFFER_READY",
        version: 3,
        updatedAt: AT,
        offer: { reservationUrn: "urn:reservation:r1", voucherUrn: null, answerBy: AT },
        answer: null,
        at: AT,
      },
    });
  });

  it("finds a notification's group by its case and group id, and leaves the address out", () => {
    const sent = event("notification.dispatched", {
      caseUrn: CASE,
      groupId: "G2",
      channel: "sms",
      recipient: "+15550101",
      template: "offer",
    });
    expect(passengerStreamOf(sent)).toBe(subCaseUrnFor(CASE, "G2"));
    expect(passengerStreamMessage(sent).data).toEqual({
      caseUrn: CASE,
      groupId: "G2",
      channel: "sms",
      template: "offer",
      at: AT,
    });
  });

  it("belongs to no group when the event names none (a wave's step)", () => {
    expect(passengerStreamOf(event("graph.step.started", { caseUrn: CASE, stepUrn: "urn:step:1" }))).toBe(
      undefined,
    );
  });
});
