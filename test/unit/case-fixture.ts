import { expect } from "vitest";
import { type CaseRecord, type CaseStatus, openCase } from "../../src/domain/case.js";
import type { CaseOpening } from "../../src/domain/case-intake.js";
import { businessGroup, cancelledFlight, nextFlight } from "../support/disruption.js";

/** The clock of the domain case tests: the case opens at `opened`, later changes happen at `later`. */
export const opened = new Date("2026-11-21T22:30:00.000Z");
export const later = new Date("2026-11-22T09:00:00.000Z");

/** Two complete groups, one per PNR, as a disruption usually arrives. */
export function opening(overrides: Partial<CaseOpening> = {}): CaseOpening {
  return {
    tenant: "urn:airline:ZX",
    externalEventId: "evt-1",
    flight: cancelledFlight(),
    nextFlight: nextFlight(),
    passengerGroups: [
      {
        id: "ABC123",
        pnr: "ABC123",
        passengers: [
          { id: "p1", lastName: "Rivera", tier: "ECONOMY", contact: { email: "a@example.com" } },
          { id: "p2", lastName: "Rivera", tier: "ECONOMY" },
        ],
      },
      businessGroup(),
    ],
    openedBy: "urn:user:supervisor-1",
    correlationUrn: "urn:trace:abc",
    intake: { source: "operator" },
    ...overrides,
  };
}

/** The case `opening()` opens, in `status`. */
export function caseIn(status: CaseStatus = "OPEN", overrides: Partial<CaseOpening> = {}): CaseRecord {
  return { ...openCase(opening(overrides), opened), status };
}

/** Expects `action` to be refused with a DomainError of this kind and code. */
export function expectRefusal(action: () => unknown, kind: string, code: string): void {
  expect(action).toThrow(expect.objectContaining({ name: "DomainError", kind, code }));
}
