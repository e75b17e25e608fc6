import { DomainError } from "../src/domain/domain-error.js";
import {
  accept,
  acquireLock,
  closeWithCase,
  compensationFailed,
  decline,
  failProcessing,
  isCurrentRun,
  offerReady,
  openSubCase,
  releaseLock,
  releaseLockOnDisconnect,
  reopenWithCase,
  type SubCase,
  type SubCaseLock,
  type SubCaseOffer,
  type SubCaseTransition,
  startRun,
  submitCompensation,
  subCaseUrnFor,
} from "../src/domain/sub-case.js";
import { parseUrn } from "../src/domain/urn.js";
import {
  type LockReleaseReason,
  SUB_CASE_EVENT,
  type SubCaseEventData,
  type SubCaseEventDataByType,
  type SubCaseView,
} from "../src/domain/events/sub-case.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** What the actor keeps: the pure sub-case plus what authorization and the index need. */
export interface SubCaseRecord {
  subCase: SubCase;
  tenant: string;
  /** IATA code of the case's airport (the disrupted flight's origin), for airport-scoped operators. */
  airport: string;
  /**
   * Bumped by every change, locks included (the sub-case `version` counts transitions only), so
   * an index fed from several paths keeps the newest view whatever order the writes arrive in.
   */
  revision: number;
  /** The last compensation request accepted, kept to recognise its replays. */
  compensation?: CompensationRecord;
  /** Set when the group left the case (split or merged away): the sub-case takes no more work. */
  retiredAt?: string;
}

export interface CompensationRecord {
  correlationUrn: string;
  payloadHash: string;
  requestedBy: string;
  requestedAt: string;
  reason?: string;
  /** The sub-case version the request produced; a replay is only a replay while it still holds. */
  acceptedVersion: number;
}

export interface OpenSubCaseCommand {
  caseUrn: string;
  groupId: string;
  tenant: string;
  airport: string;
  correlationUrn: string;
}

export interface LockCommand {
  by: string;
  ttlMs: number;
  correlationUrn: string;
}

export interface LockResult {
  view: SubCaseView;
  lock: SubCaseLock;
  renewed: boolean;
}

export interface UnlockCommand {
  by: string;
  fencingToken: number;
  correlationUrn: string;
}

export interface ReleaseHeldByCommand {
  by: string;
  reason: Exclude<LockReleaseReason, "unlock">;
  correlationUrn: string;
}

export interface CompensateCommand {
  by: string;
  payloadHash: string;
  /** The request's correlation URN; becomes the run's when the request is accepted. */
  correlationUrn: string;
  fencingToken?: number;
  expectedVersion?: number;
  reason?: string;
  /** The saga instance that will run the compensation (derived from the correlation URN). */
  sagaInstanceId?: string;
  /** What the compensation asks the run to do (the saga's CompensationAction), passed on in the event. */
  action?: string;
}

/** A saga run speaking for the sub-case: only the run the sub-case follows now may move it. */
export interface RunCommand {
  sagaInstanceId: string;
  correlationUrn: string;
}

export interface RunResult {
  view: SubCaseView;
  /** False when another run owns the sub-case now (or the offer was answered): this run stands down. */
  current: boolean;
}

export interface AnswerCommand {
  kind: "ACCEPTED" | "DECLINED";
  by: string;
  reason?: string;
  correlationUrn: string;
}

export interface AnswerResult {
  view: SubCaseView;
  /** True for a repeat accept of an accepted offer: nothing changed, nothing was published. */
  replayed: boolean;
}

export interface CompensateResult {
  view: SubCaseView;
  /** The run's correlation URN: the first request's, also for its replays. */
  correlationUrn: string;
  replayed: boolean;
}

const RECORD = "sub-case";
const LOCK_EXPIRY = "lock-expiry";

/** The actor id of a sub-case: the id part of its URN (either URN form). */
export function subCaseActorId(subCaseUrn: string): string | undefined {
  return parseUrn(subCaseUrn, "sub-case")?.id;
}

/** The actor id of the sub-case of one group of a case, derived so that creating it again is harmless. */
export function subCaseActorIdFor(caseUrn: string, groupId: string): string {
  return subCaseActorId(subCaseUrnFor(caseUrn, groupId))!;
}

/**
 * One sub-case per passenger group (spec 2.2): its status and its operator lock with fencing
 * tokens. The rules are the pure ones of `src/domain/sub-case.ts`; this class only loads, applies,
 * stores and emits. A lock's expiry is a reminder, so the index and the operators' screens learn
 * that a lock went even when nobody touches the sub-case again.
 */
export class SubCaseActor {
  constructor(private readonly context: ActorContext) {}

  async open(command: OpenSubCaseCommand): Promise<SubCaseView> {
    const existing = await this.load();
    const now = this.now();
    if (existing && !existing.retiredAt) return this.view(existing);
    if (existing) {
      // The group came back (a later amendment restored it): the same sub-case takes work again.
      const { retiredAt: _back, ...active } = existing;
      return this.commit(
        { ...active, subCase: { ...existing.subCase, updatedAt: now.toISOString() } },
        SUB_CASE_EVENT.opened,
        command.correlationUrn,
      );
    }
    const subCase = openSubCase(command.caseUrn, command.groupId, now);
    if (subCaseActorId(subCase.urn) !== this.context.actorId) {
      throw new DomainError(
        "invalid",
        "sub-case-id-mismatch",
        `Sub-case ${subCase.urn} does not belong to actor ${this.context.actorId}`,
      );
    }
    return this.commit(
      { subCase, tenant: command.tenant, airport: command.airport, revision: 0 },
      SUB_CASE_EVENT.opened,
      command.correlationUrn,
    );
  }

  async get(): Promise<SubCaseView | undefined> {
    const record = await this.load();
    return record && this.view(record);
  }

  async lock(command: LockCommand): Promise<LockResult> {
    const record = await this.active();
    const grant = acquireLock(record.subCase, command.by, this.now(), command.ttlMs);
    await this.context.reminders.set(LOCK_EXPIRY, { dueInMs: command.ttlMs });
    const view = this.commit(
      { ...record, subCase: grant.subCase },
      SUB_CASE_EVENT.locked,
      command.correlationUrn,
      {
        renewed: grant.renewed,
      },
    );
    return { view, lock: grant.lock, renewed: grant.renewed };
  }

  async unlock(command: UnlockCommand): Promise<SubCaseView> {
    const record = await this.active();
    const release = releaseLock(record.subCase, command.by, command.fencingToken, this.now());
    if (!release.changed) return this.view(record);
    await this.context.reminders.cancel(LOCK_EXPIRY);
    return this.commit(
      { ...record, subCase: release.subCase },
      SUB_CASE_EVENT.unlocked,
      command.correlationUrn,
      {
        releasedBecause: "unlock",
      },
    );
  }

  /** The holder's live connection dropped or the holder logged out: its lock goes without a token. */
  async releaseHeldBy(
    command: ReleaseHeldByCommand,
  ): Promise<{ released: boolean; view: SubCaseView | undefined }> {
    const record = await this.load();
    if (!record) return { released: false, view: undefined };
    const release = releaseLockOnDisconnect(record.subCase, command.by, this.now());
    if (!release.changed) return { released: false, view: this.view(record) };
    await this.context.reminders.cancel(LOCK_EXPIRY);
    const view = this.commit(
      { ...record, subCase: release.subCase },
      SUB_CASE_EVENT.unlocked,
      command.correlationUrn,
      {
        releasedBecause: command.reason,
      },
    );
    return { released: true, view };
  }

  /**
   * An operator submits compensation (spec 3.4, 4.1). The same payload again, while the run it
   * started is still the sub-case's latest change, is a replay: it gets the first request's
   * correlation URN and changes nothing. Once the saga has moved the sub-case on, the same payload
   * asks for a new run. The replay check comes before the lock check, so a retry of an accepted
   * request is not refused because the lock has moved on since.
   */
  async compensate(command: CompensateCommand): Promise<CompensateResult> {
    const record = await this.active();
    const previous = record.compensation;
    if (
      previous?.payloadHash === command.payloadHash &&
      previous.acceptedVersion === record.subCase.version
    ) {
      return { view: this.view(record), correlationUrn: previous.correlationUrn, replayed: true };
    }
    const now = this.now();
    const transition = submitCompensation(
      record.subCase,
      {
        by: command.by,
        correlationUrn: command.correlationUrn,
        ...(command.fencingToken !== undefined ? { fencingToken: command.fencingToken } : {}),
        ...(command.expectedVersion !== undefined ? { expectedVersion: command.expectedVersion } : {}),
        ...(command.sagaInstanceId !== undefined ? { sagaInstanceId: command.sagaInstanceId } : {}),
      },
      now,
    );
    const compensation: CompensationRecord = {
      correlationUrn: command.correlationUrn,
      payloadHash: command.payloadHash,
      requestedBy: command.by,
      requestedAt: now.toISOString(),
      ...(command.reason !== undefined ? { reason: command.reason } : {}),
      acceptedVersion: transition.subCase.version,
    };
    const replaced = record.subCase.sagaInstanceId;
    const view = this.commit(
      { ...record, subCase: transition.subCase, compensation },
      SUB_CASE_EVENT.processing,
      command.correlationUrn,
      {
        ...(command.action !== undefined ? { compensationAction: command.action } : {}),
        ...(replaced && replaced !== command.sagaInstanceId ? { replacedSagaInstanceId: replaced } : {}),
      },
    );
    return { view, correlationUrn: command.correlationUrn, replayed: false };
  }

  /**
   * The group's stay was confirmed: the saga run takes an OPEN sub-case to PROCESSING. The same
   * run again is current without a change; a sub-case in any other state belongs to another run.
   */
  async startRun(command: RunCommand): Promise<RunResult> {
    const record = await this.active();
    if (record.subCase.status !== "OPEN" && !isCurrentRun(record.subCase, command.sagaInstanceId)) {
      return { view: this.view(record), current: false };
    }
    return this.apply(record, startRun(record.subCase, command, this.now()), command.correlationUrn);
  }

  /** The run's steps are done and the passenger notified: OFFER_READY with the offer. */
  async readyOffer(command: RunCommand & { offer: SubCaseOffer }): Promise<RunResult> {
    return this.forRun(command, "PROCESSING", (subCase, now) => offerReady(subCase, now, command.offer));
  }

  /** A vendor failed for good inside the run: FAILED (the caller queues the review item). */
  async failRun(command: RunCommand & { vendorErrorCode?: string }): Promise<RunResult> {
    return this.forRun(command, "PROCESSING", (subCase, now) =>
      failProcessing(subCase, now, command.vendorErrorCode),
    );
  }

  /** The rollback's cancellation failed for good: COMPENSATION_FAILED, with the vendor's code. */
  async failCompensation(command: RunCommand & { vendorErrorCode?: string }): Promise<RunResult> {
    const record = await this.active();
    if (!isCurrentRun(record.subCase, command.sagaInstanceId))
      return { view: this.view(record), current: false };
    return this.apply(
      record,
      compensationFailed(record.subCase, this.now(), command.vendorErrorCode),
      command.correlationUrn,
    );
  }

  /**
   * The passenger answers the offer (spec 3.4), one answer at a time: a repeat accept of an
   * accepted offer is a replay (nothing stored, nothing published); any other answer to an offer
   * already answered is the domain's conflict.
   */
  async answer(command: AnswerCommand): Promise<AnswerResult> {
    const record = await this.active();
    const now = this.now();
    const transition =
      command.kind === "ACCEPTED"
        ? accept(record.subCase, now, command.by)
        : decline(record.subCase, now, {
            by: command.by,
            ...(command.reason !== undefined ? { reason: command.reason } : {}),
          });
    const { view } = this.apply(record, transition, command.correlationUrn);
    return { view, replayed: !transition.changed };
  }

  /** The group left the case: the sub-case leaves the manifest and its lock goes. */
  async retire(command: { correlationUrn: string }): Promise<SubCaseView | undefined> {
    const record = await this.load();
    if (!record || record.retiredAt) return record && this.view(record);
    const at = this.now().toISOString();
    const { lock: _dropped, ...subCase } = record.subCase;
    await this.context.reminders.cancel(LOCK_EXPIRY);
    return this.commit(
      { ...record, subCase: { ...subCase, updatedAt: at }, retiredAt: at },
      SUB_CASE_EVENT.retired,
      command.correlationUrn,
    );
  }

  /**
   * Follows the case's status (spec 3.3): a CLOSED case freezes the sub-case and drops its lock;
   * a reopened case thaws it. Nothing changes when the sub-case already matches.
   */
  async followCase(command: {
    caseStatus: string;
    correlationUrn: string;
  }): Promise<SubCaseView | undefined> {
    const record = await this.load();
    if (!record) return undefined;
    const now = this.now();
    const closing = command.caseStatus === "CLOSED";
    const subCase = closing ? closeWithCase(record.subCase, now) : reopenWithCase(record.subCase, now);
    if (subCase === record.subCase) return this.view(record);
    if (closing) await this.context.reminders.cancel(LOCK_EXPIRY);
    return this.commit(
      { ...record, subCase },
      closing ? SUB_CASE_EVENT.caseClosed : SUB_CASE_EVENT.caseReopened,
      command.correlationUrn,
    );
  }

  async receiveReminder(name: string): Promise<void> {
    if (name !== LOCK_EXPIRY) return;
    const record = await this.load();
    const lock = record?.subCase.lock;
    if (!record || !lock || Date.parse(lock.expiresAt) > this.context.clock.now()) return;
    const { lock: _expired, ...subCase } = record.subCase;
    this.commit(
      { ...record, subCase: { ...subCase, updatedAt: this.now().toISOString() } },
      SUB_CASE_EVENT.lockExpired,
      record.subCase.urn,
    );
  }

  /** Applies `move` for the run the sub-case follows when it stands in `expected`; a repeat is current. */
  private async forRun(
    command: RunCommand,
    expected: SubCase["status"],
    move: (subCase: SubCase, now: Date) => SubCaseTransition,
  ): Promise<RunResult> {
    const record = await this.active();
    if (!isCurrentRun(record.subCase, command.sagaInstanceId))
      return { view: this.view(record), current: false };
    if (record.subCase.status !== expected) return { view: this.view(record), current: true };
    return this.apply(record, move(record.subCase, this.now()), command.correlationUrn);
  }

  /** Stores and publishes a transition of the state machine; an unchanged one stores nothing. */
  private apply(record: SubCaseRecord, transition: SubCaseTransition, correlationUrn: string): RunResult {
    if (!transition.changed || !transition.event) return { view: this.view(record), current: true };
    return {
      view: this.commit({ ...record, subCase: transition.subCase }, transition.event, correlationUrn),
      current: true,
    };
  }

  private async load(): Promise<SubCaseRecord | undefined> {
    return this.context.state.get<SubCaseRecord>(RECORD);
  }

  /** The record, or a refusal when there is no such sub-case or it no longer takes work. */
  private async active(): Promise<SubCaseRecord> {
    const record = await this.load();
    if (!record) {
      throw new DomainError("not-found", "sub-case", `No sub-case urn:sub-case:${this.context.actorId}`);
    }
    if (record.retiredAt) {
      throw new DomainError(
        "conflict",
        "sub-case-retired",
        "The passenger group of this sub-case was split or merged; reload the manifest",
        { retiredAt: record.retiredAt },
      );
    }
    return record;
  }

  /** Stores the record one revision on and emits `type` with the new view. */
  private commit(
    record: SubCaseRecord,
    type: keyof SubCaseEventDataByType,
    correlationUrn: string,
    details: Pick<
      SubCaseEventData,
      "renewed" | "releasedBecause" | "compensationAction" | "replacedSagaInstanceId"
    > = {},
  ): SubCaseView {
    const next = { ...record, revision: record.revision + 1 };
    this.context.state.set(RECORD, next);
    const view = this.view(next);
    this.context.emit({
      type,
      tenant: next.tenant,
      correlationUrn,
      caseUrn: next.subCase.caseUrn,
      data: { ...view, ...details } satisfies SubCaseEventData,
    });
    return view;
  }

  private view(record: SubCaseRecord): SubCaseView {
    const { subCase } = record;
    const lock =
      subCase.lock && Date.parse(subCase.lock.expiresAt) > this.context.clock.now()
        ? subCase.lock
        : undefined;
    return {
      subCaseUrn: subCase.urn,
      caseUrn: subCase.caseUrn,
      groupId: subCase.groupId,
      tenant: record.tenant,
      airport: record.airport,
      status: subCase.status,
      version: subCase.version,
      revision: record.revision,
      lockedBy: lock?.lockedBy ?? null,
      lockExpiresAt: lock?.expiresAt ?? null,
      retiredAt: record.retiredAt ?? null,
      caseClosedAt: subCase.caseClosedAt ?? null,
      offer: subCase.offer ?? null,
      answer: subCase.answer
        ? { kind: subCase.answer.kind, at: subCase.answer.at, reason: subCase.answer.reason }
        : null,
      sagaInstanceId: subCase.sagaInstanceId ?? null,
      vendorErrorCode: subCase.vendorErrorCode ?? null,
      updatedAt: subCase.updatedAt,
    };
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}
