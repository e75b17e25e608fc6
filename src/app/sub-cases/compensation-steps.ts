import type { DeepReadonly } from "../../domain/deep-readonly.js";
import type { Logger } from "pino";
import { BookingActor, holdingReservation } from "../../../actors/BookingActor.js";
import { CaseActor } from "../../../actors/CaseActor.js";
import { CaseResolutionActor } from "../../../actors/CaseResolutionActor.js";
import { SubCaseActor, subCaseActorId, subCaseActorIdFor } from "../../../actors/SubCaseActor.js";
import { vendorCancellationKey } from "../../domain/booking/vendor-idempotency.js";
import { DomainError } from "../../domain/domain-error.js";
import type { EventDataByType } from "../../domain/events/catalogue.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import { type Reservation, parseReservationUrn } from "../../domain/reservation.js";
import { reviewItemUrnFor } from "../../domain/review-item.js";
import { urn } from "../../domain/urn.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { type EventBus, publishEvent } from "../../runtime/event-bus.js";
import type { InventoryVendors } from "../../vendors/vendor-port.js";
import { VendorError } from "../../vendors/vendor-error.js";
import {
  type HeldAnswer,
  type RunStart,
  SUB_CASE_SAGA_ACTOR,
  type SagaAlert,
  type SagaStay,
  type SagaTrigger,
  type StepCall,
  type StepOutcome,
  type StepRefusal,
  type SubCaseRun,
  SUB_CASE_SAGA_STEPS,
  type SubCaseSagaSteps,
} from "../../workflows/sub-case-saga/model.js";
import { caseRefOf } from "../cases/case-changes.js";
import { type DirectContracts, isDirect } from "../booking/direct-contracts.js";
import type { ReservationIndex } from "../booking/reservation-index.js";
import type { PassengerNotifier } from "../notifications/passenger-notifier.js";
import { legDone, type SagaLeg } from "./saga-leg.js";
import type { SubCaseIndex } from "./sub-case-index.js";

export interface CompensationStepsDeps {
  actors: ActorRuntime;
  bus: EventBus;
  clock: Clock;
  index: SubCaseIndex;
  reservations: ReservationIndex;
  vendors: InventoryVendors;
  contracts: DirectContracts;
  /** Undefined in a deployment without notifications: the offer then waits for the passenger's login. */
  notifier: PassengerNotifier | undefined;
  /** The meal card and ground transport legs; undefined in a deployment without them. */
  walletLeg: SagaLeg | undefined;
  transportLeg: SagaLeg | undefined;
  logger: Logger;
}

/**
 * The steps of the sub-case saga (src/workflows/sub-case-saga): what each activity does with the
 * actors, booking's reservations, the vendors and notifications. Every step is idempotent: the
 * stay and voucher are read from what booking already did, the notification is deduplicated by
 * the run, a cancellation of a cancelled reservation changes nothing, and the sub-case moves only
 * for the run it follows.
 */
export class CompensationSteps implements SubCaseSagaSteps {
  constructor(private readonly deps: CompensationStepsDeps) {}

  async begin(run: SubCaseRun, _trigger: SagaTrigger): Promise<RunStart> {
    let started: { view: SubCaseView; current: boolean };
    try {
      started = await this.deps.actors.invoke(SubCaseActor, this.actorIdOf(run), "startRun", {
        sagaInstanceId: run.sagaInstanceId,
        correlationUrn: run.correlationUrn,
      });
    } catch (error) {
      // A sub-case that no longer takes work (its group left the case, the case closed) ends the run.
      if (isRefusal(error)) return { current: false };
      throw error;
    }
    await this.deps.index.record(started.view);
    if (!started.current) return { current: false };
    await this.publish(run, "graph.step.started", {
      ...this.runStepOf(run),
      name: RUN_STEP,
      startedAt: this.now(),
    });
    const view = await this.deps.actors.peek(CaseActor, caseRefOf(run.caseUrn).id, "groupView", run.groupId);
    return { current: true, nextDepartureAt: view?.case.nextFlight?.scheduledDeparture ?? null };
  }

  runStep(step: string, call: StepCall): Promise<StepOutcome> {
    switch (step) {
      case "confirm-stay":
        return this.confirmStay(call);
      case "issue-wallet-card":
        return this.deps.walletLeg?.run(call) ?? Promise.resolve(notDeployed("wallet cards"));
      case "book-transport":
        return this.deps.transportLeg?.run(call) ?? Promise.resolve(notDeployed("ground transport"));
      case "issue-voucher":
        return this.issueVoucher(call);
      case "notify-passenger":
        return this.notifyPassenger(call);
      default:
        throw new Error(`The sub-case saga has no step ${step}`);
    }
  }

  undoStep(step: string, call: StepCall): Promise<StepOutcome> {
    if (step === "confirm-stay") return this.cancelStay(call);
    if (step === "issue-wallet-card" && this.deps.walletLeg) return this.deps.walletLeg.undo(call);
    if (step === "book-transport" && this.deps.transportLeg) return this.deps.transportLeg.undo(call);
    if (step === "issue-wallet-card" || step === "book-transport") return Promise.resolve(notDeployed(step));
    throw new Error(`The sub-case saga step ${step} has nothing to undo`);
  }

  stepStarted(run: SubCaseRun, step: string): Promise<void> {
    return this.publish(run, "graph.step.started", {
      ...this.stepOf(run, step),
      name: step,
      startedAt: this.now(),
    });
  }

  /** A step's end, and for a forward step the run's progress: its share of the steps and the offer. */
  async stepEnded(run: SubCaseRun, step: string, result: Record<string, unknown>): Promise<void> {
    await this.publish(run, "graph.step.completed", {
      ...this.stepOf(run, step),
      completedAt: this.now(),
      result,
    });
    const done = SUB_CASE_SAGA_STEPS.findIndex((s) => s.name === step) + 1;
    if (done === 0) return;
    await this.publish(run, "graph.step.progress", {
      ...this.runStepOf(run),
      progress: done / (SUB_CASE_SAGA_STEPS.length + 1),
      message: `${step} done`,
    });
  }

  async offer(run: SubCaseRun, stay: SagaStay, answerBy: string): Promise<{ current: boolean }> {
    if (!stay.reservationUrn) throw new Error("The run reached its offer without a stay");
    const { view, current } = await this.deps.actors.invoke(SubCaseActor, this.actorIdOf(run), "readyOffer", {
      sagaInstanceId: run.sagaInstanceId,
      correlationUrn: run.correlationUrn,
      offer: { reservationUrn: stay.reservationUrn, voucherUrn: stay.voucherUrn, answerBy },
    });
    await this.deps.index.record(view);
    if (current) await this.runEnded(run, { status: view.status, ...stay, answerBy });
    return { current };
  }

  async answerOf(run: SubCaseRun): Promise<HeldAnswer> {
    const view = await this.deps.actors.invoke(SubCaseActor, this.actorIdOf(run), "get");
    if (view?.sagaInstanceId !== run.sagaInstanceId) return { current: false };
    return {
      current: true,
      answer: view.answer && { kind: view.answer.kind, correlationUrn: run.correlationUrn },
    };
  }

  async fail(run: SubCaseRun, refusal: StepRefusal): Promise<void> {
    const { view } = await this.deps.actors.invoke(SubCaseActor, this.actorIdOf(run), "failRun", {
      sagaInstanceId: run.sagaInstanceId,
      correlationUrn: run.correlationUrn,
      ...(refusal.vendorErrorCode ? { vendorErrorCode: refusal.vendorErrorCode } : {}),
    });
    await this.deps.index.record(view);
    await this.runEnded(run, {
      status: view.status,
      error: refusal.message,
      vendorErrorCode: refusal.vendorErrorCode,
    });
  }

  async failCompensation(run: SubCaseRun, refusal: StepRefusal): Promise<void> {
    const { view } = await this.deps.actors.invoke(SubCaseActor, this.actorIdOf(run), "failCompensation", {
      sagaInstanceId: run.sagaInstanceId,
      correlationUrn: run.correlationUrn,
      ...(refusal.vendorErrorCode ? { vendorErrorCode: refusal.vendorErrorCode } : {}),
    });
    await this.deps.index.record(view);
  }

  /**
   * An operator is told through the manual-review queue: a stay the vendor would not cancel is a
   * MANUAL_RECONCILIATION item (spec 7: settled with the vendor, not rebooked), anything else a
   * BOOKING_FAILED item (a group whose stay needs a person). The item's URN derives from the run
   * and the finding, so a repeated activity opens no second item. The sub-case's own move reaches
   * the operators' screens as subcase:state-changed on the WebSocket.
   */
  alert(run: SubCaseRun, alert: SagaAlert): Promise<void> {
    return this.publish(run, "review-item.requested", {
      reviewItemUrn: reviewItemUrnFor("sub-case-saga", run.sagaInstanceId, alert.kind),
      caseUrn: run.caseUrn,
      category: alert.kind === "compensation-failed" ? "MANUAL_RECONCILIATION" : "BOOKING_FAILED",
      attemptedHotels: [],
      affectedGroups: [run.groupId],
      reason: reasonOf(alert, run),
    });
  }

  /** Reads every active sub-case of the case from its actor and lets the case's resolution decide. */
  async settleCase(run: SubCaseRun): Promise<void> {
    const outline = await this.deps.actors.invoke(CaseActor, caseRefOf(run.caseUrn).id, "outline");
    if (!outline) return;
    const views = await Promise.all(
      outline.groupIds.map((groupId) =>
        this.deps.actors.invoke(SubCaseActor, subCaseActorIdFor(outline.urn, groupId), "get"),
      ),
    );
    const subCases = views
      .filter((v): v is SubCaseView => v !== undefined && v.retiredAt === null)
      .map((v) => ({ subCaseUrn: v.subCaseUrn, groupId: v.groupId, status: v.status }));
    if (subCases.length < outline.groupIds.length) return;
    await this.deps.actors.invoke(CaseResolutionActor, caseRefOf(run.caseUrn).id, "settle", {
      tenant: run.tenant,
      caseUrn: run.caseUrn,
      subCases,
      correlationUrn: run.correlationUrn,
    });
  }

  // ---- the steps ---------------------------------------------------------------------------------

  /** The stay the group holds now: booking confirmed it (the trigger) or holds it since (a reoffer). */
  private async confirmStay(call: StepCall): Promise<StepOutcome> {
    const holding = await this.holdingOf(call.run);
    if (!holding) return refused(`Group ${call.run.groupId} holds no confirmed reservation`);
    return {
      done: true,
      stay: { reservationUrn: holding.urn },
      result: { reservationUrn: holding.urn, hotel: holding.hotel.name, vendor: holding.vendor },
    };
  }

  /** Booking issues the voucher with the reservation: the step takes it, and refuses a stay gone meanwhile. */
  private async issueVoucher(call: StepCall): Promise<StepOutcome> {
    const reservation = await this.reservationOf(call.run, call.stay.reservationUrn);
    if (!reservation || reservation.status === "CANCELLED") {
      return refused(`The reservation ${call.stay.reservationUrn} was cancelled before its voucher went out`);
    }
    return {
      done: true,
      stay: { voucherUrn: reservation.voucher.urn },
      result: { voucherUrn: reservation.voucher.urn },
    };
  }

  /**
   * Tells the group about its offer (contract: template `offer`, deduplicated by the run). A send
   * every channel refused is recorded in the case's send log; the offer still stands, as the
   * passenger also finds it by PNR login; so it does in a deployment with no notifier at all.
   */
  private async notifyPassenger(call: StepCall): Promise<StepOutcome> {
    const notifier = this.deps.notifier;
    const { run } = call;
    if (!notifier) {
      this.deps.logger.warn(
        { subCaseUrn: run.subCaseUrn },
        "no passenger notifier is bound; the offer is not sent",
      );
      return {
        done: true,
        stay: {},
        result: { status: "NOT_SENT", reason: "no notification channel is configured" },
      };
    }
    const receipt = await notifier.notify({
      tenant: run.tenant,
      caseUrn: run.caseUrn,
      groupId: run.groupId,
      subCaseUrn: run.subCaseUrn,
      template: "offer",
      correlationUrn: run.correlationUrn,
      dedupeKey: `${run.sagaInstanceId}:offer`,
      requestedBy: SUB_CASE_SAGA_ACTOR,
    });
    return {
      done: true,
      stay: {},
      result: { notificationUrn: receipt.notificationUrn, channel: receipt.channel, status: receipt.status },
    };
  }

  /**
   * Cancels the offered stay with its vendor (or gives a direct contract's rooms back), then in the
   * case's booking ledger. A reservation already cancelled is done; a vendor's permanent refusal
   * (NON_REFUNDABLE, BOOKING_PAST_CANCELLATION_DEADLINE) is the step's refusal, with its code;
   * an outage throws, to be retried. The simulators answer a second cancellation with the
   * cancelled reservation, so a retry after a crash between the two cancels nothing twice.
   */
  private async cancelStay(call: StepCall): Promise<StepOutcome> {
    const { run } = call;
    const reservation = await this.reservationOf(run, call.stay.reservationUrn);
    if (!reservation) return refused(`No reservation ${call.stay.reservationUrn} to cancel`);
    if (reservation.status === "CANCELLED") {
      return { done: true, stay: {}, result: { reservationUrn: reservation.urn, alreadyCancelled: true } };
    }
    try {
      await this.cancelAtVendor(run.tenant, reservation);
    } catch (error) {
      if (
        error instanceof VendorError &&
        (error.classification === "permanent" || error.classification === "permanent-for-offer")
      ) {
        return refused(error.message, error.vendorCode);
      }
      throw error;
    }
    const turn = await this.deps.actors.invoke(BookingActor, caseRefOf(run.caseUrn).id, "markCancelled", {
      reservationId: reservation.id,
      by: SUB_CASE_SAGA_ACTOR,
      reason: "the passenger declined the offer",
      correlationUrn: run.correlationUrn,
    });
    await this.deps.reservations.record(turn);
    return { done: true, stay: {}, result: { reservationUrn: reservation.urn, cancelled: true } };
  }

  private async cancelAtVendor(tenant: string, reservation: DeepReadonly<Reservation>): Promise<void> {
    const { vendor: vendorId, vendorReservationId, providerOfferId } = reservation;
    if (!vendorReservationId) return; // booked by hand, out of band: nothing to cancel at a vendor
    if (isDirect(vendorId)) {
      if (providerOfferId)
        await this.deps.contracts.release({ contractUrn: providerOfferId, holdId: vendorReservationId });
      return;
    }
    const vendor = this.deps.vendors.forTenant(tenant).find((v) => v.id === vendorId);
    if (!vendor) throw new Error(`Vendor ${vendorId} is not enabled for ${tenant}`);
    await vendor.cancel({
      reservationId: vendorReservationId,
      idempotencyKey: vendorCancellationKey(vendorId, vendorReservationId),
    });
  }

  // ---- reads ---------------------------------------------------------------------------------------

  private async holdingOf(run: SubCaseRun): Promise<DeepReadonly<Reservation> | undefined> {
    const ledger = await this.deps.actors.peek(BookingActor, caseRefOf(run.caseUrn).id, "groupLedger", [
      run.groupId,
    ]);
    return ledger && holdingReservation(ledger, run.groupId);
  }

  private async reservationOf(
    run: SubCaseRun,
    reservationUrn: string | null,
  ): Promise<DeepReadonly<Reservation> | undefined> {
    const ref = reservationUrn ? parseReservationUrn(reservationUrn) : undefined;
    if (!ref) return undefined;
    const ledger = await this.deps.actors.peek(BookingActor, caseRefOf(run.caseUrn).id, "groupLedger", [
      run.groupId,
    ]);
    return ledger?.reservations[ref.id];
  }

  private actorIdOf(run: SubCaseRun): string {
    return subCaseActorId(run.subCaseUrn)!;
  }

  /**
   * The run's own work as one step on the operator channel: started when it takes the sub-case,
   * progressing with each step, completed once it offered the stay or failed (what follows is the
   * passenger's answer, and a decline's rollback reports its own undo steps).
   */
  private runEnded(run: SubCaseRun, result: Record<string, unknown>): Promise<void> {
    return this.publish(run, "graph.step.completed", {
      ...this.runStepOf(run),
      completedAt: this.now(),
      result,
    });
  }

  private runStepOf(run: SubCaseRun) {
    return {
      caseUrn: run.caseUrn,
      stepUrn: `urn:step:${run.sagaInstanceId}`,
      subCaseUrn: run.subCaseUrn,
      groupId: run.groupId,
    };
  }

  private stepOf(run: SubCaseRun, step: string) {
    return {
      caseUrn: run.caseUrn,
      stepUrn: `urn:step:${run.sagaInstanceId}.${step}`,
      subCaseUrn: run.subCaseUrn,
      groupId: run.groupId,
    };
  }

  private publish<T extends keyof EventDataByType>(
    run: SubCaseRun,
    type: T,
    data: EventDataByType[T],
  ): Promise<void> {
    return publishEvent(this.deps.bus, {
      id: urn("event"),
      type,
      tenant: run.tenant,
      caseUrn: run.caseUrn,
      occurredAt: this.now(),
      correlationUrn: run.correlationUrn,
      data,
    } as Parameters<typeof publishEvent<T>>[1]);
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

/** The name the run's own step goes by on the operator channel. */
const RUN_STEP = "sub-case-saga";

function refused(message: string, vendorErrorCode: string | null = null): StepOutcome {
  return { done: false, refusal: { message, vendorErrorCode } };
}

function isRefusal(error: unknown): boolean {
  const kind =
    error instanceof DomainError ? error.kind : DomainError.isShape(error) ? error.kind : undefined;
  return kind !== undefined && kind !== "unavailable";
}

function reasonOf(alert: SagaAlert, run: SubCaseRun): string {
  switch (alert.kind) {
    case "failed":
      return `The compensation of group ${run.groupId} failed at ${alert.step}: ${alert.refusal.message}${codeOf(alert.refusal)}`;
    case "declined":
      return `The passenger group ${run.groupId} declined the offer; the stay was cancelled and the group needs another`;
    case "compensation-failed":
      return `Manual reconciliation: the stay of group ${run.groupId} could not be cancelled after the passenger declined: ${alert.refusal.message}${codeOf(alert.refusal)}`;
    case "unanswered":
      return `The passenger group ${run.groupId} did not answer its offer by ${alert.answerBy}; the offer stands`;
  }
}

function codeOf(refusal: StepRefusal): string {
  return refusal.vendorErrorCode ? ` (${refusal.vendorErrorCode})` : "";
}

function notDeployed(what: string): StepOutcome {
  return legDone({ skipped: `${what} are not deployed here` });
}
