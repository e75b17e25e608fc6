import { describe, expect, it } from "vitest";
import type { CaseSnapshot } from "../../actors/CaseActor.js";
import { COLLECTIONS } from "../../src/app/cases/case-documents.js";
import { CaseProjection } from "../../src/app/cases/case-projection.js";
import type { PassengerLogin, PassengerLogins } from "../../src/app/cases/passenger-sign-in.js";
import { type CaseRecord, revised } from "../../src/domain/case.js";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { DocumentPassengerDirectory } from "../../src/passenger-identity/document-passenger-directory.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { caseIn, later } from "./case-fixture.js";

/** The passenger directory, counting the logins written to it. */
class CountedLogins implements PassengerLogins {
  written: PassengerLogin[] = [];
  constructor(private readonly directory: DocumentPassengerDirectory) {}

  async upsert(login: PassengerLogin): Promise<void> {
    this.written.push(login);
    await this.directory.upsert(login);
  }
}

/** A projection over a store its processes share: each `process()` is another process's projection. */
function projectionStore() {
  const documents = new MemoryDocumentStore();
  const logins = new CountedLogins(new DocumentPassengerDirectory(documents));
  const process = () => new CaseProjection(documents, logins, new CaseRevocations(documents));
  return { documents, logins, process };
}

function snapshotOf(record: CaseRecord, reservations: CaseSnapshot["reservations"] = []): CaseSnapshot {
  return {
    case: record,
    intake: {
      source: "operator",
      receivedBy: "urn:user:supervisor-1",
      receivedAt: record.openedAt,
      correlationUrn: "urn:trace:abc",
    },
    reservations,
    localResidentGroups: [],
    reviewItems: [],
    passengerPnrs: {},
  };
}

function reservationOf(groupId: string) {
  return {
    reservationUrn: `urn:reservation:${groupId}`,
    groupId,
    status: "CONFIRMED",
    updatedAt: later.toISOString(),
  };
}

/** The case with its first passenger's last name changed, one version on. */
function renamed(record: CaseRecord, lastName: string): CaseRecord {
  const [first, ...others] = record.passengerGroups;
  const [passenger, ...rest] = first!.passengers;
  return revised(
    {
      ...record,
      passengerGroups: [{ ...first!, passengers: [{ ...passenger!, lastName }, ...rest] }, ...others],
    },
    later,
  );
}

describe("case projection (the case index, passenger logins and disruption feed)", () => {
  it("writes no login again when the next version changed only the case's reservations", async () => {
    const { documents, logins, process } = projectionStore();
    const projection = process();
    const opened = caseIn();
    await projection.apply(snapshotOf(opened));
    const everyLogin = logins.written.length;
    expect(everyLogin).toBeGreaterThan(0);

    const booked = revised(opened, later);
    await projection.apply(snapshotOf(booked, [reservationOf("ABC123")]));

    expect(logins.written).toHaveLength(everyLogin);
    const index = await documents
      .collection<{ _id: string; revision: number }>(COLLECTIONS.cases)
      .get(opened.urn);
    expect(index?.revision).toBe(booked.version);
  });

  it("writes the logins again when the passengers changed", async () => {
    const { documents, logins, process } = projectionStore();
    const projection = process();
    const opened = caseIn();
    await projection.apply(snapshotOf(opened));
    logins.written = [];

    await projection.apply(snapshotOf(renamed(opened, "Okafor")));

    expect(logins.written.map((login) => login.lastName)).toContain("Okafor");
    const found = await new DocumentPassengerDirectory(documents).findGroupByPnr(
      opened.tenant,
      "ABC123",
      "Okafor",
    );
    expect(found?.caseUrn).toBe(opened.urn);
  });

  it("writes every login when another process projected the version before", async () => {
    const { logins, process } = projectionStore();
    const here = process();
    const opened = caseIn();
    await here.apply(snapshotOf(opened));
    const elsewhere = renamed(opened, "Okafor");
    await process().apply(snapshotOf(elsewhere));
    logins.written = [];

    await here.apply(snapshotOf(revised(elsewhere, later), [reservationOf("ABC123")]));

    expect(logins.written.length).toBeGreaterThan(0);
  });

  it("writes every login when a version in between was never projected here", async () => {
    const { logins, process } = projectionStore();
    const projection = process();
    const opened = caseIn();
    await projection.apply(snapshotOf(opened));
    logins.written = [];

    await projection.apply(snapshotOf(revised(revised(opened, later), later)));

    expect(logins.written.length).toBeGreaterThan(0);
  });
});
