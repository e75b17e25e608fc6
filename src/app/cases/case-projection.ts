import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { isDeepStrictEqual } from "node:util";
import type { CaseSnapshot } from "../../../actors/CaseActor.js";
import { passengerCount } from "../../domain/case.js";
import { priorityOf } from "../../domain/case-priority.js";
import type { DocumentStore } from "../../runtime/document-store.js";
import { writeRevisioned } from "../revisioned-index.js";
import type { CaseTokenRevocations, PassengerLogin, PassengerLogins } from "./passenger-sign-in.js";
import {
  type CaseIndexEntry,
  COLLECTIONS,
  type DisruptionRecord,
  type ReviewItemDocument,
} from "./case-documents.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * Carries a case snapshot into everything that is read without asking the actor: the case index,
 * the passenger logins (with the case status, so a closed case refuses logins), the review items,
 * the disruption feed, and the revocation of passenger tokens when the case closes.
 *
 * It runs twice for each change: in the use case right after the actor's turn, so the caller reads
 * its own write, and from the case events, which the outbox delivers at least once, so a crash in
 * between loses nothing. Both are idempotent: the index entry records the version it reflects and
 * is written last, so a snapshot no newer than it is skipped and an interrupted run is redone.
 * Runs for one case are serialized in this process so an older snapshot never overtakes a newer one.
 *
 * Most changes (a reservation recorded, a review item raised) leave the passengers, their groups and
 * the disruption as they were, yet a full flight's case has hundreds of logins: a run that follows
 * this process's own complete run of the version just before (the index entry still at it) writes
 * only the parts whose content differs from what that run wrote. Any other run writes every part.
 */
@injectable()
export class CaseProjection {
  private readonly running = new Map<string, Promise<void>>();
  /** The parts of the most recently projected cases, by case URN, oldest first. */
  private readonly projected = new Map<string, ProjectedParts>();

  constructor(
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(TOKENS.passengerLogins) private readonly logins: PassengerLogins,
    @inject(TOKENS.caseRevocations) private readonly revocations: CaseTokenRevocations,
  ) {}

  apply(snapshot: DeepReadonly<CaseSnapshot>): Promise<void> {
    const urn = snapshot.case.urn;
    const previous = this.running.get(urn) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.project(snapshot));
    this.running.set(urn, run);
    void run
      .finally(() => {
        if (this.running.get(urn) === run) this.running.delete(urn);
      })
      .catch(() => undefined);
    return run;
  }

  /**
   * Brings the projection up to `version` of the case from its events: once a run in progress for
   * the case (the request that made the change projects it before answering) has finished, the
   * snapshot is only read and projected when the projection does not reflect that version yet.
   * False when there is no such case.
   */
  async catchUp(
    caseUrn: string,
    version: number,
    snapshot: () => Promise<CaseSnapshot | undefined>,
  ): Promise<boolean> {
    await this.running.get(caseUrn)?.catch(() => undefined);
    if (await this.reflects(caseUrn, version)) return true;
    const current = await snapshot();
    if (!current) return false;
    await this.apply(current);
    return true;
  }

  /**
   * True when everything is projected up to `version` of the case: the index entry, written last,
   * is at it or beyond. Then an event of that version asks for nothing new.
   */
  private async reflects(caseUrn: string, version: number): Promise<boolean> {
    const current = await this.index().get(caseUrn);
    return current !== undefined && current.revision >= version;
  }

  private async project(snapshot: DeepReadonly<CaseSnapshot>): Promise<void> {
    const record = snapshot.case;
    const indexed = await this.index().get(record.urn);
    if (indexed !== undefined && indexed.revision >= record.version) return;

    const known = this.projected.get(record.urn);
    // Another process may have written parts of a later version before failing to index it; the
    // version just before this one leaves no room for such a run.
    const previous =
      known?.version === indexed?.revision && known?.version === record.version - 1 ? known : undefined;
    const parts: ProjectedParts = {
      version: record.version,
      logins: loginsOf(snapshot),
      reviewItemUrns: snapshot.reviewItems.map((item) => item.urn),
      disruption: disruptionOf(snapshot),
    };
    if (!previous || !sameLogins(previous.logins, parts.logins)) await this.projectLogins(parts.logins);
    if (!previous || !sameList(previous.reviewItemUrns, parts.reviewItemUrns)) {
      await this.projectReviewItems(snapshot);
    }
    await this.projectRevocation(snapshot);
    if (!previous || !isDeepStrictEqual(previous.disruption, parts.disruption)) {
      await this.documents.collection<DisruptionRecord>(COLLECTIONS.disruptions).put(parts.disruption);
    }
    await writeRevisioned(this.index(), [indexEntryOf(snapshot)]);
    this.remember(record.urn, parts);
  }

  private remember(caseUrn: string, parts: ProjectedParts): void {
    this.projected.delete(caseUrn);
    this.projected.set(caseUrn, parts);
    if (this.projected.size > PROJECTED_CASES_KEPT) {
      this.projected.delete(this.projected.keys().next().value!);
    }
  }

  private index() {
    return this.documents.collection<CaseIndexEntry>(COLLECTIONS.cases);
  }

  private async projectLogins(logins: readonly PassengerLogin[]): Promise<void> {
    await Promise.all(logins.map((login) => this.logins.upsert(login)));
  }

  private async projectReviewItems({ case: record, reviewItems }: DeepReadonly<CaseSnapshot>): Promise<void> {
    if (reviewItems.length === 0) return;
    const items = this.documents.collection<ReviewItemDocument>(COLLECTIONS.reviewItems);
    // Usually the queue has them already: its own copies follow the items' events at once. The
    // others are inserted all at once, leaving the queue's copies no turn to slip in between.
    const queued = new Set(
      (await items.findAll({ _id: { $in: reviewItems.map((item) => item.urn) } })).map((doc) => doc._id),
    );
    await Promise.all(
      reviewItems
        .filter((item) => !queued.has(item.urn))
        .map((item) =>
          // Already there, and perhaps already claimed or resolved: the queue owns it now.
          items.insertIfAbsent({
            _id: item.urn,
            urn: item.urn,
            caseUrn: record.urn,
            tenant: record.tenant,
            airport: record.flight.origin,
            category: item.category,
            priority: item.priority,
            attemptedHotels: [],
            affectedGroups: [...item.affectedGroups],
            recommendations: [],
            state: "OPEN",
            assignedTo: null,
            reason: item.reason,
            createdAt: item.raisedAt,
          }),
        ),
    );
  }

  /** Spec 5.2: every passenger token of a closed case is refused; reopening lets new ones in. */
  private async projectRevocation({ case: record }: DeepReadonly<CaseSnapshot>): Promise<void> {
    const { revocations } = this;
    if (record.status === "CLOSED") {
      await revocations.revokeCase(record.urn, new Date(record.statusChange?.at ?? record.updatedAt));
    } else if (await revocations.isClosed(record.urn)) {
      await revocations.caseReopened(record.urn);
    }
  }
}

/** Cases whose projected parts are kept: the cases changing now, not every case ever seen. */
const PROJECTED_CASES_KEPT = 256;

/** What a complete run wrote besides the index entry (the revocation is looked at every run). */
interface ProjectedParts {
  version: number;
  logins: PassengerLogin[];
  reviewItemUrns: string[];
  disruption: DisruptionRecord;
}

/**
 * One login per passenger with a PNR and a last name, in the order of the case's groups. Loops, not
 * nested flatMaps: it runs for every version of a full flight's case.
 */
function loginsOf({ case: record, passengerPnrs }: DeepReadonly<CaseSnapshot>): PassengerLogin[] {
  const logins: PassengerLogin[] = [];
  for (const group of record.passengerGroups) {
    for (const passenger of group.passengers) {
      const pnr = passengerPnrs[passenger.id] ?? group.pnr;
      if (!pnr || !passenger.lastName) continue;
      logins.push({
        tenant: record.tenant,
        pnr,
        lastName: passenger.lastName,
        caseUrn: record.urn,
        groupId: group.id,
        caseStatus: record.status,
      });
    }
  }
  return logins;
}

/** Same logins in the same order: writing them again would leave every entry as it is. */
function sameLogins(before: readonly PassengerLogin[], after: readonly PassengerLogin[]): boolean {
  return (
    before.length === after.length &&
    before.every((login, i) => {
      const other = after[i]!;
      return (
        login.pnr === other.pnr &&
        login.lastName === other.lastName &&
        login.groupId === other.groupId &&
        login.caseStatus === other.caseStatus
      );
    })
  );
}

function sameList(before: readonly string[], after: readonly string[]): boolean {
  return before.length === after.length && before.every((value, i) => value === after[i]);
}

function indexEntryOf({ case: record }: DeepReadonly<CaseSnapshot>): CaseIndexEntry {
  return {
    _id: record.urn,
    urn: record.urn,
    tenant: record.tenant,
    status: record.status,
    priority: priorityOf(record),
    airport: record.flight.origin,
    flightNumber: record.flight.number,
    externalEventId: record.externalEventId,
    openedAt: record.openedAt,
    updatedAt: record.updatedAt,
    passengerCount: passengerCount(record),
    groupCount: record.passengerGroups.length,
    ...(record.drill ? { drill: true as const } : {}),
    passengerIds: record.passengerGroups.flatMap((g) => g.passengers.map((p) => p.id)),
    version: record.version,
    revision: record.version,
  };
}

function disruptionOf({ case: record, intake }: DeepReadonly<CaseSnapshot>): DisruptionRecord {
  return {
    _id: record.urn,
    urn: `urn:disruption:${record.urn.slice("urn:case:".length)}`,
    tenant: record.tenant,
    caseUrn: record.urn,
    externalEventId: record.externalEventId,
    source: intake.source,
    receivedBy: intake.receivedBy,
    receivedAt: intake.receivedAt,
    flight: record.flight,
    nextFlight: record.nextFlight ?? null,
    disruption: intake.disruption ?? null,
    passengerCount: passengerCount(record),
    groupCount: record.passengerGroups.length,
  };
}
