import {
  type CaseRecord,
  type CaseStatus,
  caseNotFound,
  passengerCount,
  type PassengerGroup,
  type RecordedChange,
  type ReviewItemDraft,
} from "../src/domain/case.js";
import {
  type CaseAmendment,
  type ManifestAmendmentArgs,
  amendManifest,
  mergeCaseGroups,
  regroupCase,
  splitCaseGroup,
} from "../src/domain/case-amendment.js";
import { type CaseIntake, type CaseOpening, receiveDisruption } from "../src/domain/case-intake.js";
import {
  type CaseTransition,
  close,
  recordedMove,
  reopen,
  returnToFlow,
  SYSTEM_ACTOR,
  toManualReview,
} from "../src/domain/case-lifecycle.js";
import type { GroupAssignment } from "../src/domain/case-manifest.js";
import { raisePriority } from "../src/domain/case-priority.js";
import {
  type ReservationRecord,
  type ReservationReport,
  recordReservation,
} from "../src/domain/case-reservations.js";
import {
  newReviewItems,
  policyViolationDraft,
  type RaisedReviewItem,
} from "../src/domain/case-review-items.js";
import {
  type CaseReaccommodationArgs,
  reaccommodateCase,
  type StayPlan,
} from "../src/domain/reaccommodation.js";
import type { CaseEventDetails, CaseEventType, CaseStatusEventType } from "../src/domain/events/case.js";
import type { EventDataByType } from "../src/domain/events/catalogue.js";
import { caseTier, type Tier } from "../src/domain/policy/tiers.js";
import { reviewItemUrnFor } from "../src/domain/review-item.js";
import type { ServiceRole } from "../src/domain/roles.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** Everything the case aggregate holds, as reads and projections see it after a turn. */
export interface CaseSnapshot {
  case: CaseRecord;
  intake: CaseIntake;
  reservations: ReservationRecord[];
  /** Groups whose new connection leaves no overnight gap (spec 2.2). */
  localResidentGroups: string[];
  reviewItems: RaisedReviewItem[];
  /**
   * The booking reference of each passenger whose group does not carry it: a merged or regrouped
   * group may hold several PNRs (and then carries none), and PNR login still needs each passenger's
   * own. Every other passenger's is its group's `pnr`, so a case as it opened has none here.
   */
  passengerPnrs: Record<string, string>;
  /** The last stay plan computed by reaccommodation. */
  stayPlan?: StayPlan;
}

/** Who and where a case is, its status and its groups, without the passengers. */
export interface CaseOutline {
  urn: string;
  tenant: string;
  /** The disrupted flight's origin. */
  airport: string;
  status: CaseStatus;
  version: number;
  groupIds: string[];
}

/**
 * What a reader of one passenger group needs of its case (a sub-case's saga legs): the case
 * without its passengers, the group (undefined when the case has no such group), and the tier
 * that picks the case's policy, which depends on every group (caseTier).
 */
export interface CaseGroupView {
  case: Omit<CaseRecord, "passengerGroups">;
  group: PassengerGroup | undefined;
  tier: Tier | null;
}

export interface CaseChangeResult {
  snapshot: CaseSnapshot;
  /** Absent when the command repeated a change already made. */
  change?: RecordedChange;
}

export interface OpenCaseResult extends CaseChangeResult {
  /** False when this was a replay of an already opened disruption. */
  created: boolean;
}

export type OpenCaseArgs = CaseOpening;

/** Who acts and in which request, on every command after opening. */
interface Acting {
  by: string;
  correlationUrn: string;
}

export interface StatusChangeArgs extends Acting {
  reason: string;
  role: ServiceRole;
}

export interface ManualReviewArgs extends Acting {
  reason: string;
  /** Groups the POLICY_VIOLATION item names; every group of the case when absent. */
  affectedGroups?: string[];
}

export interface ReservationStatusArgs extends ReservationReport {
  correlationUrn: string;
}

export interface RegroupArgs extends Acting {
  groups: GroupAssignment[];
  reason: string;
}

export interface SplitArgs extends Acting {
  groupId: string;
  into: string[][];
  reason: string;
}

export interface MergeArgs extends Acting {
  groupIds: string[];
  reason: string;
}

export interface AddPassengersArgs extends ManifestAmendmentArgs, Acting {}

export interface ReaccommodateArgs extends CaseReaccommodationArgs, Acting {}

export interface PriorityRequestArgs extends Acting {
  reason: string;
}

const KEYS = {
  case: "case",
  /** The case's `CaseOutline`, written with it. */
  outline: "outline",
  intake: "intake",
  reservations: "reservations",
  localResidents: "localResidents",
  reviewItems: "reviewItems",
  /** PNRs of passengers their groups do not carry (`pnrsApartFromGroups`). */
  passengerPnrs: "passengerPnrs",
  stayPlan: "stayPlan",
} as const;

/**
 * One case per actor; the actor id is the case id (see `caseIdFor`). It applies the case rules of
 * src/domain (the state machine of spec 3.3 in case-lifecycle.ts, intake, amendments,
 * reservations, reaccommodation, review items) one turn at a time: concurrent pushes of the same
 * disruption and concurrent operator edits are serialized here. Every change bumps the case
 * version, emits its event and returns what to audit.
 */
export class CaseActor {
  constructor(private readonly context: ActorContext) {}

  async open(command: OpenCaseArgs): Promise<OpenCaseResult> {
    const decision = receiveDisruption(await this.get(), command, this.now());
    if (!decision.created) return { snapshot: await this.snapshotOf(decision.record), created: false };
    const { record, intake, reviewDrafts, change } = decision;
    this.store(record);
    this.context.state.set(KEYS.intake, intake);
    this.emit(record, "case.opened", command.correlationUrn, {
      externalEventId: record.externalEventId,
      flight: record.flight,
      nextFlight: record.nextFlight ?? null,
      groupCount: record.passengerGroups.length,
      passengerCount: passengerCount(record),
      passengerGroups: record.passengerGroups,
      source: intake.source,
    });
    this.raise([], reviewDrafts, record, command.correlationUrn);
    return { snapshot: await this.snapshotOf(record), created: true, change };
  }

  async get(): Promise<CaseRecord | undefined> {
    return this.context.state.get<CaseRecord>(KEYS.case);
  }

  /**
   * The case without its passengers, for callers that need no more: kept beside the case, it is
   * read without reading (and copying) a full flight's manifest.
   */
  async outline(): Promise<CaseOutline | undefined> {
    const outline = await this.context.state.get<CaseOutline>(KEYS.outline);
    if (outline) return outline;
    // A case stored before outlines were kept.
    const record = await this.get();
    return record && outlineOf(record);
  }

  /**
   * The case as one group's reader sees it (CaseGroupView). A saga run reads it for each of its
   * groups' legs, so a full flight's case is looked at (peek), not copied: only the view is.
   */
  async groupView(groupId: string): Promise<CaseGroupView | undefined> {
    const record = await this.context.state.peek<CaseRecord>(KEYS.case);
    if (!record) return undefined;
    const { passengerGroups, ...withoutPassengers } = record;
    return {
      case: withoutPassengers,
      group: passengerGroups.find((group) => group.id === groupId),
      tier: caseTier(passengerGroups),
    };
  }

  /**
   * The case with what is kept beside it. Only looked at (peek): the answer is copied on its way
   * out of the turn, so reading copies for it first would copy a full flight's manifest twice.
   */
  async snapshot(): Promise<CaseSnapshot | undefined> {
    const record = await this.context.state.peek<CaseRecord>(KEYS.case);
    return record && this.snapshotOf(record);
  }

  async close(args: StatusChangeArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    return this.transition(close(record, args, this.now()), "case.closed", args);
  }

  /** Spec 3.3: ADMIN only; the caller has written the audit entry that gates it. */
  async reopen(args: StatusChangeArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    return this.transition(reopen(record, args, this.now()), "case.reopened", args);
  }

  /**
   * Allocation found no policy for the case context (spec 3.3): the case waits in MANUAL_REVIEW with
   * a POLICY_VIOLATION item. Repeating it while the case is already there changes nothing.
   */
  async toManualReview(args: ManualReviewArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    const transition = toManualReview(record, args, this.now());
    const result = await this.transition(transition, "case.manual-review", args);
    if (!transition.changed) return result;
    const draft = policyViolationDraft(transition.record, args.reason, args.affectedGroups);
    const reviewItems = await this.reviewItems();
    this.raise(reviewItems, [draft], transition.record, args.correlationUrn, transition.record.version);
    return { ...result, snapshot: await this.snapshotOf(transition.record) };
  }

  /** The review item was resolved: back to the normal flow (spec 3.3). */
  async returnToFlow(args: Acting & { reason: string }): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    return this.transition(returnToFlow(record, args, this.now()), "case.returned-to-flow", args);
  }

  /**
   * The booking flow reports a reservation's status. Once every reservation of the case is
   * CHECKED_OUT the case closes by itself (spec 3.3); a repeated report changes nothing.
   */
  async recordReservationStatus(args: ReservationStatusArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    const { correlationUrn, ...report } = args;
    const decision = recordReservation(record, await this.reservations(), report, this.now());
    if (!decision.changed) return { snapshot: await this.snapshotOf(record) };
    this.context.state.set(KEYS.reservations, decision.reservations);
    this.store(decision.record);
    this.emit(decision.record, "case.reservation-recorded", correlationUrn, {
      reservationUrn: args.reservationUrn,
      groupId: args.groupId,
      reservationStatus: args.status,
    });
    if (decision.closing)
      return this.transition(decision.closing, "case.closed", { by: SYSTEM_ACTOR, correlationUrn });
    return { snapshot: await this.snapshotOf(decision.record) };
  }

  /** POST /v1/cases/{urn}/passenger-groups: a new partition of the case's passengers. */
  async regroup(args: RegroupArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    return this.amend(regroupCase(record, await this.pnrsApart(), args, this.now()), args);
  }

  async splitGroup(args: SplitArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    return this.amend(splitCaseGroup(record, await this.pnrsApart(), args, this.now()), args);
  }

  async mergeGroups(args: MergeArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    return this.amend(mergeCaseGroups(record, await this.pnrsApart(), args, this.now()), args);
  }

  /** Spreadsheet upload or partner amendment: passengers added or corrected, next flight corrected. */
  async addPassengers(
    args: AddPassengersArgs,
  ): Promise<CaseChangeResult & { added: string[]; updated: string[] }> {
    const record = await this.requireCase();
    const amendment = amendManifest(record, await this.pnrsApart(), args, this.now());
    if (!amendment) return { snapshot: await this.snapshotOf(record), added: [], updated: [] };
    const result = await this.amend(amendment, args);
    return { ...result, added: amendment.added, updated: amendment.updated };
  }

  /**
   * PATCH /cases/{urn}/reaccommodate: the next flight moved and the stay plan is recomputed (see
   * `reaccommodateCase`). The booking flow acts on the plan's extend/shorten/rebook decisions from
   * the `case.reaccommodated` event.
   */
  async reaccommodate(args: ReaccommodateArgs): Promise<CaseChangeResult & { plan: StayPlan }> {
    const record = await this.requireCase();
    const reservations = Object.values(await this.reservations());
    const { plan, localResidentGroups, change, ...decision } = reaccommodateCase(
      record,
      reservations,
      await this.localResidents(),
      args,
      this.now(),
    );
    this.store(decision.record);
    this.context.state.set(KEYS.localResidents, localResidentGroups);
    this.context.state.set(KEYS.stayPlan, plan);
    this.emit(decision.record, "case.reaccommodated", args.correlationUrn, {
      nextFlight: args.nextFlight,
      plan,
      localResidentGroups,
    });
    return { snapshot: await this.snapshotOf(decision.record), plan, change };
  }

  /**
   * A partner asks for the case to be handled sooner (spec 4.3 priority-request): the priority
   * goes up one level, as `raisePriority` decides; at the top level nothing changes.
   */
  async requestPriority(args: PriorityRequestArgs): Promise<CaseChangeResult> {
    const record = await this.requireCase();
    const decision = raisePriority(record, args, this.now());
    if (!decision.changed) return { snapshot: await this.snapshotOf(record) };
    this.store(decision.record);
    this.emit(decision.record, "case.priority-raised", args.correlationUrn, {
      from: decision.from,
      to: decision.to,
      reason: args.reason.trim(),
      by: args.by,
    });
    return {
      snapshot: await this.snapshotOf(decision.record),
      ...(decision.change ? { change: decision.change } : {}),
    };
  }

  private async transition(
    transition: CaseTransition,
    eventType: CaseStatusEventType,
    acting: Acting & { reason?: string },
  ): Promise<CaseChangeResult> {
    if (!transition.changed) return { snapshot: await this.snapshotOf(transition.record) };
    const { record, from, to } = transition;
    this.store(record);
    this.emit(record, eventType, acting.correlationUrn, {
      from,
      to,
      reason: record.statusChange?.reason,
      by: record.statusChange?.by,
      effects: transition.effects,
    });
    return { snapshot: await this.snapshotOf(record), change: recordedMove(transition, eventType, acting) };
  }

  /** Stores an amendment of the manifest, emits case.amended and raises the review items it calls for. */
  private async amend(amendment: CaseAmendment, acting: Acting): Promise<CaseChangeResult> {
    const { record, change } = amendment;
    this.store(record);
    if (amendment.passengerPnrs) this.context.state.set(KEYS.passengerPnrs, amendment.passengerPnrs);
    this.emit(record, "case.amended", acting.correlationUrn, {
      change: change.action,
      reason: change.reason,
      passengerGroups: record.passengerGroups,
      nextFlight: record.nextFlight ?? null,
      groupCount: record.passengerGroups.length,
      passengerCount: passengerCount(record),
      ...amendment.details,
    });
    this.raise(await this.reviewItems(), amendment.reviewDrafts, record, acting.correlationUrn);
    return { snapshot: await this.snapshotOf(record), change };
  }

  /**
   * Records the review items not raised before and emits `review-item.raised` for each.
   * `occurrence` separates items that may recur, such as a POLICY_VIOLATION after the case went
   * back to the flow.
   */
  private raise(
    existing: readonly RaisedReviewItem[],
    drafts: ReviewItemDraft[],
    record: CaseRecord,
    correlationUrn: string,
    occurrence?: number,
  ): void {
    const addressed = drafts.map((draft) => ({
      urn: reviewItemUrnFor(
        record.urn,
        draft.category,
        ...[...draft.affectedGroups].sort(),
        String(occurrence ?? ""),
      ),
      draft,
    }));
    const raised = newReviewItems(existing, addressed, this.now().toISOString());
    if (raised.length === 0) return;
    for (const item of raised) {
      this.context.emit({
        type: "review-item.raised",
        tenant: record.tenant,
        correlationUrn,
        caseUrn: record.urn,
        data: { caseUrn: record.urn, airport: record.flight.origin, ...item },
      });
    }
    this.context.state.set(KEYS.reviewItems, [...existing, ...raised]);
  }

  private emit<T extends CaseEventType>(
    record: CaseRecord,
    type: T,
    correlationUrn: string,
    details: CaseEventDetails<T>,
  ): void {
    const data = { caseUrn: record.urn, status: record.status, version: record.version, ...details };
    this.context.emit({
      type,
      tenant: record.tenant,
      correlationUrn,
      caseUrn: record.urn,
      data: data as EventDataByType[T],
    });
  }

  /** Stages the case and its outline, which always go together. */
  private store(record: CaseRecord): void {
    this.context.state.set(KEYS.case, record);
    this.context.state.set(KEYS.outline, outlineOf(record));
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }

  /**
   * The stored case itself (peek), not a copy: the decisions of src/domain never change their
   * inputs, they build a new record sharing the unchanged parts. A full flight's case reports a
   * reservation per group, and copying the case in each of those turns made a flight quadratic.
   */
  private async requireCase(): Promise<CaseRecord> {
    const record = await this.context.state.peek<CaseRecord>(KEYS.case);
    if (!record) throw caseNotFound(this.context.actorId);
    return record;
  }

  /** What is kept beside the case is looked at (peek): the snapshot is copied on its way out of the turn. */
  private async snapshotOf(record: CaseRecord): Promise<CaseSnapshot> {
    const state = this.context.state;
    const [intake, reservations, localResidentGroups, reviewItems, passengerPnrs, stayPlan] =
      await Promise.all([
        state.peek<CaseIntake>(KEYS.intake),
        state.peek<Record<string, ReservationRecord>>(KEYS.reservations),
        state.peek<string[]>(KEYS.localResidents),
        state.peek<RaisedReviewItem[]>(KEYS.reviewItems),
        state.peek<Record<string, string>>(KEYS.passengerPnrs),
        state.peek<StayPlan>(KEYS.stayPlan),
      ]);
    return {
      case: record,
      // Written in the opening turn, with the case itself.
      intake: intake!,
      reservations: Object.values(reservations ?? {}),
      localResidentGroups: localResidentGroups ?? [],
      reviewItems: reviewItems ?? [],
      passengerPnrs: passengerPnrs ?? {},
      ...(stayPlan ? { stayPlan } : {}),
    };
  }

  // What is kept beside the case is looked at (peek) too, for the same pure decisions.
  private async reservations(): Promise<Readonly<Record<string, ReservationRecord>>> {
    return (await this.context.state.peek<Record<string, ReservationRecord>>(KEYS.reservations)) ?? {};
  }

  private async localResidents(): Promise<readonly string[]> {
    return (await this.context.state.peek<string[]>(KEYS.localResidents)) ?? [];
  }

  /** PNRs of passengers their groups do not carry (see `pnrsApartFromGroups`). */
  private async pnrsApart(): Promise<Readonly<Record<string, string>>> {
    return (await this.context.state.peek<Record<string, string>>(KEYS.passengerPnrs)) ?? {};
  }

  private async reviewItems(): Promise<readonly RaisedReviewItem[]> {
    return (await this.context.state.peek<RaisedReviewItem[]>(KEYS.reviewItems)) ?? [];
  }
}

function outlineOf(record: CaseRecord): CaseOutline {
  return {
    urn: record.urn,
    tenant: record.tenant,
    airport: record.flight.origin,
    status: record.status,
    version: record.version,
    groupIds: record.passengerGroups.map((group) => group.id),
  };
}
