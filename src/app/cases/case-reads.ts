import type { CaseSnapshot } from "../../../actors/CaseActor.js";
import type {
  CasePriority,
  CasePriorityRequest,
  CaseStatus,
  Passenger,
  PassengerGroup,
} from "../../domain/case.js";
import { priorityOf } from "../../domain/case-priority.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
import type { ReservationRecord } from "../../domain/case-reservations.js";
import { subCaseUrnFor } from "../../domain/sub-case.js";
import { parseUrn } from "../../domain/urn.js";
import { scopedAirport } from "../authorization.js";
import type { Principal } from "../principals.js";
import {
  type DocumentStore,
  type Filter,
  type FindOptions,
  InvalidCursorError,
  type Page,
} from "../../runtime/document-store.js";
import { CaseEntitlements, type CaseEntitlementsView } from "./case-entitlements.js";
import { CaseChanges } from "./case-changes.js";
import {
  type CaseIndexEntry,
  COLLECTIONS,
  type DisruptionRecord,
  type ReviewItemDocument,
  type SubCaseEntry,
} from "./case-documents.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface CaseListFilter {
  status?: CaseStatus;
  priority?: CasePriority;
  airport?: string;
  /** Bounds on openedAt, inclusive, ISO 8601. */
  from?: string;
  to?: string;
}

export type CaseSummary = Omit<CaseIndexEntry, "_id" | "passengerIds" | "revision" | "drill"> & {
  drill: boolean;
};

export interface PassengerView extends Passenger {
  urn: string;
  groupId: string;
  pnr: string | null;
  localResident: boolean;
}

export interface CaseView {
  urn: string;
  tenant: string;
  externalEventId: string;
  status: CaseStatus;
  flight: CaseSnapshot["case"]["flight"];
  nextFlight: CaseSnapshot["case"]["nextFlight"] | null;
  openedAt: string;
  updatedAt: string;
  version: number;
  statusChange: CaseSnapshot["case"]["statusChange"] | null;
  priority: CasePriority;
  priorityRequest: CasePriorityRequest | null;
  /** True for a drill case (spec 4.2): every read says so. */
  drill: boolean;
  passengerGroups: {
    id: string;
    pnr: string | null;
    subCaseUrn: string;
    operationalStatus: string;
    origin: PassengerGroup["origin"] | null;
    passengers: PassengerView[];
  }[];
  wave: { urn?: string; allocations: object[]; totalCost?: unknown; savingsVsMarket?: unknown };
  reservations: Omit<ReservationRecord, "updatedAt">[];
  manualReviewItems: Omit<ReviewItemDocument, "_id" | "tenant" | "airport">[];
  stayPlan: CaseSnapshot["stayPlan"] | null;
  /** What each passenger is owed: care per regime and the meal allowance (src/domain/entitlements). */
  entitlements: CaseEntitlementsView;
}

/**
 * The latest allocation wave of a case (spec 2.6), as the case detail shows it. Waves belong to
 * allocation, which builds on cases, so the detail is handed the lookup rather than importing it.
 */
export type LatestWaveLookup = (
  tenant: string,
  caseUrn: string,
) => Promise<
  | {
      _id: string;
      allocations: readonly { alternatives?: unknown }[];
      totalCost?: unknown;
      savingsVsMarket?: unknown;
    }
  | undefined
>;

type LatestWave = Awaited<ReturnType<LatestWaveLookup>>;

/** What the partner surface shows: case state and manifest, without passengers' contact details. */
export interface ReadOptions {
  withContacts: boolean;
}

/** A case detail as it was last built, with what it was built from (see CaseReads.view). */
interface BuiltDetail {
  /** Every change to a case bumps its version (`revised`): the snapshot's parts are those of this version. */
  version: number;
  items: readonly unknown[];
  subCases: readonly unknown[];
  wave: LatestWave;
  entitlements: unknown;
  view: DeepReadonly<CaseView>;
}

/** Case details kept, by case and whether they show contacts; the oldest goes first. */
const KEPT_DETAILS = 100;

/**
 * Case reads. The case detail comes from the case actor (the authority) joined with the review
 * items and sub-cases kept in documents; lists come from the case index. Every read is filtered by
 * the caller's tenant (spec 5.4) and, for an airport-scoped operator, by its airport (spec 4.2).
 */
@injectable()
export class CaseReads {
  private readonly built = new Map<string, BuiltDetail>();

  constructor(
    @inject(CaseChanges) private readonly changes: CaseChanges,
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(TOKENS.latestWave) private readonly latestWave: LatestWaveLookup,
    @inject(CaseEntitlements) private readonly entitlements: CaseEntitlements,
  ) {}

  async detail(caller: Principal, caseUrn: string, options: ReadOptions): Promise<DeepReadonly<CaseView>> {
    return this.view(await this.changes.peek(caseUrn, caller), options);
  }

  /**
   * Only looks at the snapshot, and at the documents it reads (peeks): the view shares their parts,
   * so it is read-only. A case read again unchanged (the same version, the same documents: a peek
   * hands out the stored ones, which a store replaces rather than changes, and the same
   * entitlements) is answered with the view built the last time, the very object, so that its JSON
   * is written once (serialisedOnce) rather than on every read of a full flight's case.
   */
  async view(snapshot: DeepReadonly<CaseSnapshot>, options: ReadOptions): Promise<DeepReadonly<CaseView>> {
    const { case: record } = snapshot;
    const [items, subCases, wave, entitlements] = await Promise.all([
      this.documents
        .collection<ReviewItemDocument>(COLLECTIONS.reviewItems)
        .peekAll({ caseUrn: record.urn }, { sort: { createdAt: 1 } }),
      this.activeSubCases(record.urn),
      this.latestWave(record.tenant, record.urn),
      this.entitlements.of(snapshot),
    ]);
    const key = `${record.urn} ${options.withContacts}`;
    const built = this.built.get(key);
    if (
      built &&
      built.version === record.version &&
      built.entitlements === entitlements &&
      sameWave(built.wave, wave) &&
      sameElements(built.items, items) &&
      sameElements(built.subCases, subCases)
    ) {
      return built.view;
    }
    const view = this.build(snapshot, options, items, subCases, wave, entitlements);
    this.built.delete(key);
    this.built.set(key, { version: record.version, items, subCases, wave, entitlements, view });
    if (this.built.size > KEPT_DETAILS) this.built.delete(this.built.keys().next().value as string);
    return view;
  }

  private build(
    snapshot: DeepReadonly<CaseSnapshot>,
    options: ReadOptions,
    items: readonly DeepReadonly<ReviewItemDocument>[],
    subCases: readonly DeepReadonly<SubCaseEntry>[],
    wave: LatestWave,
    entitlements: DeepReadonly<CaseEntitlementsView>,
  ): DeepReadonly<CaseView> {
    const { case: record } = snapshot;
    const local = new Set(snapshot.localResidentGroups);
    const subCaseOf = new Map(subCases.map((s) => [s.groupId, s]));
    return {
      urn: record.urn,
      tenant: record.tenant,
      externalEventId: record.externalEventId,
      status: record.status,
      flight: record.flight,
      nextFlight: record.nextFlight ?? null,
      openedAt: record.openedAt,
      updatedAt: record.updatedAt,
      version: record.version,
      statusChange: record.statusChange ?? null,
      priority: priorityOf(record),
      priorityRequest: record.priorityRequest ?? null,
      drill: record.drill === true,
      passengerGroups: record.passengerGroups.map((group) => ({
        id: group.id,
        pnr: group.pnr ?? null,
        subCaseUrn: subCaseOf.get(group.id)?._id ?? subCaseUrnFor(record.urn, group.id),
        operationalStatus: local.has(group.id)
          ? "LOCAL_RESIDENT"
          : (subCaseOf.get(group.id)?.status ?? "OPEN"),
        origin: group.origin ?? null,
        passengers: group.passengers.map((p) => passengerView(p, group, snapshot, options)),
      })),
      // The latest allocation wave; its ranking inputs (why each hotel won or lost) are on GET /allocation/wave/{urn}.
      wave: wave
        ? {
            urn: wave._id,
            allocations: wave.allocations.map(({ alternatives: _alternatives, ...allocation }) => allocation),
            totalCost: wave.totalCost,
            savingsVsMarket: wave.savingsVsMarket,
          }
        : { allocations: [] },
      reservations: snapshot.reservations.map(({ updatedAt: _updatedAt, ...reservation }) => reservation),
      manualReviewItems: items.map(
        ({
          _id,
          tenant,
          airport,
          priorityRank: _rank,
          revision: _revision,
          ...item
        }: DeepReadonly<ReviewItemDocument> & {
          priorityRank?: unknown;
          revision?: unknown;
        }) => item,
      ),
      stayPlan: snapshot.stayPlan ?? null,
      entitlements,
    };
  }

  /** GET /v1/cases and GET /partner/v1/cases: newest first, then by URN. */
  async list(caller: Principal, filter: CaseListFilter, page: FindOptions): Promise<Page<CaseSummary>> {
    const query: Filter = { tenant: caller.tenant };
    const airport = scopedAirport(caller, filter.airport);
    if (airport) query.airport = airport;
    if (filter.status) query.status = filter.status;
    if (filter.priority) query.priority = filter.priority;
    const openedAt = timeRange(filter.from, filter.to);
    if (openedAt) query.openedAt = openedAt;
    const found = await this.index().find(query, { ...page, sort: { openedAt: -1, urn: 1 } });
    return { ...found, items: found.items.map(summaryOf) };
  }

  /**
   * GET /v1/cases/{urn}/manifest: the case's sub-cases, one per group, in group order. Read from the
   * sub-case index; a group whose sub-case is not indexed yet shows as an OPEN sub-case.
   */
  async manifest(caller: Principal, caseUrn: string, page: { limit: number; cursor?: string }) {
    const snapshot = await this.changes.peek(caseUrn, caller);
    const record = snapshot.case;
    const subCaseOf = new Map((await this.activeSubCases(record.urn)).map((s) => [s.groupId, s]));
    const local = new Set(snapshot.localResidentGroups);
    const entries = record.passengerGroups.map((group) => {
      const subCase = subCaseOf.get(group.id);
      return {
        subCaseUrn: subCase?._id ?? subCaseUrnFor(record.urn, group.id),
        groupId: group.id,
        pnr: group.pnr ?? null,
        status: subCase?.status ?? "OPEN",
        lockedBy: subCase?.lockedBy ?? null,
        localResident: local.has(group.id),
        passengerCount: group.passengers.length,
        passengers: group.passengers.map((p) => passengerView(p, group, snapshot, { withContacts: true })),
      };
    });
    return arrayPage(entries, page);
  }

  async passengers(
    caller: Principal,
    caseUrn: string,
    page: { limit: number; cursor?: string },
    options: ReadOptions,
  ) {
    const snapshot = await this.changes.peek(caseUrn, caller);
    const passengers = snapshot.case.passengerGroups.flatMap((group) =>
      group.passengers.map((p) => passengerView(p, group, snapshot, options)),
    );
    return arrayPage(passengers, page);
  }

  /** The tenant's cases listing a passenger, by passenger URN (`urn:passenger:<id>`). */
  async casesOfPassenger(
    caller: Principal,
    passengerUrn: string,
    page: FindOptions,
  ): Promise<Page<CaseSummary>> {
    const passengerId = parseUrn(passengerUrn, "passenger")?.id;
    if (!passengerId) return { items: [], nextCursor: null, hasMore: false };
    const found = await this.index().find(
      { tenant: caller.tenant, passengerIds: passengerId },
      { ...page, sort: { openedAt: -1, urn: 1 } },
    );
    return { ...found, items: found.items.map(summaryOf) };
  }

  /** GET /partner/v1/disruptions: the tenant's disruptions in the order they arrived. */
  async disruptions(caller: Principal, since: string | undefined, page: FindOptions) {
    const query: Filter = { tenant: caller.tenant };
    const range = timeRange(since, undefined);
    if (range) query.receivedAt = range;
    const found = await this.documents
      .collection<DisruptionRecord>(COLLECTIONS.disruptions)
      .find(query, { ...page, sort: { receivedAt: 1 } });
    return { ...found, items: found.items.map(({ _id, ...record }) => record) };
  }

  private index() {
    return this.documents.collection<CaseIndexEntry>(COLLECTIONS.cases);
  }

  private async activeSubCases(caseUrn: string): Promise<readonly DeepReadonly<SubCaseEntry>[]> {
    return this.documents
      .collection<SubCaseEntry & { retiredAt?: string | null }>(COLLECTIONS.subCases)
      .peekAll({ caseUrn, retiredAt: null });
  }
}

/** The same documents, in the same order: a store replaces a document it changes (DocumentStore.peekAll). */
function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((element, i) => element === b[i]);
}

/** The same wave and the same parts of it (a peek hands out the stored parts, not copies). */
function sameWave(a: LatestWave, b: LatestWave): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a._id === b._id &&
      a.allocations === b.allocations &&
      a.totalCost === b.totalCost &&
      a.savingsVsMarket === b.savingsVsMarket)
  );
}

/** Timestamps are stored as `toISOString()`; bounds are normalised the same way to compare as text. */
function timeRange(from: string | undefined, to: string | undefined): Filter | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { $gte: new Date(from).toISOString() } : {}),
    ...(to ? { $lte: new Date(to).toISOString() } : {}),
  };
}

function summaryOf({ _id, passengerIds, revision, drill, ...entry }: CaseIndexEntry): CaseSummary {
  return { ...entry, drill: drill === true };
}

function passengerView(
  passenger: DeepReadonly<Passenger>,
  group: DeepReadonly<PassengerGroup>,
  snapshot: DeepReadonly<CaseSnapshot>,
  options: ReadOptions,
): DeepReadonly<PassengerView> {
  const { contact, ...rest } = passenger;
  return {
    urn: `urn:passenger:${passenger.id}`,
    ...rest,
    ...(options.withContacts && contact ? { contact } : {}),
    groupId: group.id,
    pnr: snapshot.passengerPnrs[passenger.id] ?? group.pnr ?? null,
    localResident: snapshot.localResidentGroups.includes(group.id),
  };
}

/**
 * A page of a list held in one record (a case's groups or passengers). The cursor is the offset of
 * the next item in the record's fixed order.
 */
export function arrayPage<T>(items: readonly T[], page: { limit: number; cursor?: string }) {
  const offset = page.cursor === undefined ? 0 : decodeOffset(page.cursor);
  const slice = items.slice(offset, offset + page.limit);
  const next = offset + slice.length;
  const hasMore = next < items.length;
  return {
    items: slice,
    nextCursor: hasMore ? Buffer.from(JSON.stringify({ offset: next })).toString("base64url") : null,
    hasMore,
  };
}

function decodeOffset(cursor: string): number {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { offset?: unknown };
    if (typeof offset === "number" && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // Falls through to the refusal below.
  }
  throw new InvalidCursorError();
}
