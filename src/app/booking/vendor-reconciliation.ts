import type { Logger } from "pino";
import { BookingActor } from "../../../actors/BookingActor.js";
import { ReconciliationActor, reconciliationActorId } from "../../../actors/ReconciliationActor.js";
import { type Orphan, cancelsFreely, orphanReview, orphanVerdict } from "../../domain/booking/orphan-room.js";
import { vendorCancellationKey } from "../../domain/booking/vendor-idempotency.js";
import { parseVendorBookingReference, vendorReferencePrefix } from "../../domain/booking/vendor-reference.js";
import { BOOKING_SYSTEM_ACTOR } from "../../domain/events/booking.js";
import { urn } from "../../domain/urn.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { VendorError } from "../../vendors/vendor-error.js";
import type { InventoryVendor, InventoryVendors, VendorReservation } from "../../vendors/vendor-port.js";
import type { AuditLog } from "../audit-log.js";
import { caseRefOf } from "../cases/case-changes.js";
import { ReservationIndex } from "./reservation-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Spec 6.3: every 5 to 60 minutes per vendor. */
export const RECONCILIATION_MINUTES = { min: 5, max: 60, default: 15 } as const;

/**
 * Each poll asks again for the last minutes before its cursor: a change stamped in the same
 * instant the cursor was taken, or by a vendor whose clock runs behind, is still seen. Changes
 * listed twice are harmless: an older view than the one applied is ignored.
 */
export const RECONCILIATION_OVERLAP_MS = 5 * 60_000;

export interface ReconciliationRound {
  /** Changes the vendor listed since the cursor. */
  listed: number;
  /** Reservations of ours that moved because of them. */
  applied: number;
  /** Orphan rooms (src/domain/booking/orphan-room.ts) cancelled at the vendor this round. */
  orphansCancelled: number;
  /** Orphan rooms handed to an operator (manual reconciliation) this round. */
  orphansReferred: number;
}

/**
 * Polls the hotel vendors' reconciliation interfaces and brings our reservations in line with
 * what the vendors now hold (spec 6.3): a moved date, a changed room count or cost, or a hotel-side
 * cancellation. The BookingActor of the reservation's case applies each change, so a change and a
 * booking of the same case never interleave; changes to reservations that are not ours (or not
 * recorded yet) are passed over. Each round then looks for orphans: rooms the vendor holds under
 * the tenant's reference that no reservation records (see `settleOrphans`).
 */
@injectable()
export class VendorReconciliation {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.vendors) private readonly vendors: InventoryVendors,
    @inject(ReservationIndex) private readonly reservations: ReservationIndex,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.logger) private readonly logger: Logger,
  ) {}

  /** One reminder per vendor the tenant uses, every `intervalMinutes`. */
  async schedule(tenant: string, intervalMinutes: number): Promise<void> {
    if (intervalMinutes < RECONCILIATION_MINUTES.min || intervalMinutes > RECONCILIATION_MINUTES.max) {
      throw new Error(
        `the reconciliation interval must be ${RECONCILIATION_MINUTES.min} to ${RECONCILIATION_MINUTES.max} minutes, got ${intervalMinutes}`,
      );
    }
    for (const vendor of this.vendors.forTenant(tenant)) {
      await this.actors.invoke(ReconciliationActor, reconciliationActorId(tenant, vendor.id), "schedule", {
        tenant,
        vendor: vendor.id,
        intervalMs: intervalMinutes * 60_000,
      });
    }
  }

  async poll(
    tenant: string,
    vendorId: string,
    since: string,
    correlationUrn: string,
  ): Promise<ReconciliationRound> {
    const vendor = this.vendors.forTenant(tenant).find((v) => v.id === vendorId);
    if (!vendor) return { listed: 0, applied: 0, orphansCancelled: 0, orphansReferred: 0 };
    const changes = await vendor.reconcile(
      new Date(Date.parse(since) - RECONCILIATION_OVERLAP_MS).toISOString(),
    );
    let cursor = since;
    let applied = 0;
    for (const change of changes) {
      if (Date.parse(change.at) > Date.parse(cursor)) cursor = change.at;
      const { reservation: theirs } = change;
      const ours = await this.reservations.byVendorReservation(tenant, vendor.id, theirs.reservationId);
      if (!ours) continue;
      const turn = await this.actors.invoke(BookingActor, caseRefOf(ours.caseUrn).id, "applyVendorChange", {
        reservationId: ours.id,
        view: {
          status: theirs.status,
          checkIn: theirs.checkIn,
          checkOut: theirs.checkOut,
          rooms: theirs.rooms,
          total: theirs.total,
          updatedAt: theirs.updatedAt,
        },
        correlationUrn,
      });
      if (turn.changed) {
        applied++;
        await this.reservations.record(turn);
      }
    }
    await this.actors.invoke(ReconciliationActor, reconciliationActorId(tenant, vendor.id), "advance", {
      since: cursor,
    });
    if (applied > 0)
      this.logger.info({ tenant, vendor: vendor.id, applied }, "reconciliation applied vendor changes");
    return { listed: changes.length, applied, ...(await this.settleOrphans(tenant, vendor, correlationUrn)) };
  }

  /**
   * The rooms the vendor holds under the tenant's reference, stays not over yet, that no
   * reservation records and that no booking can still confirm (`orphanVerdict`): each is cancelled
   * at the vendor while that is free, under the one cancellation key every caller uses (so a late
   * booker giving the same room back cancels it once), else handed to an operator as a
   * MANUAL_RECONCILIATION item (spec 7). A room a reservation records is never touched. A vendor
   * that cannot be reached is asked again next round.
   */
  private async settleOrphans(
    tenant: string,
    vendor: InventoryVendor,
    correlationUrn: string,
  ): Promise<Pick<ReconciliationRound, "orphansCancelled" | "orphansReferred">> {
    const now = new Date(this.clock.now());
    const settled = { orphansCancelled: 0, orphansReferred: 0 };
    let listed: VendorReservation[];
    try {
      listed = await vendor.openBookings({
        referencePrefix: vendorReferencePrefix(tenant),
        checkOutFrom: now.toISOString().slice(0, 10),
      });
    } catch (error) {
      this.logger.warn(
        { err: error, tenant, vendor: vendor.id },
        "could not list the vendor's bookings for orphan rooms; the next round asks again",
      );
      return settled;
    }
    for (const room of listed) {
      const orphan = await this.orphanOf(tenant, vendor.id, room);
      if (!orphan) continue;
      const outcome = cancelsFreely(room, now)
        ? await this.cancel(tenant, vendor, room, orphan, correlationUrn)
        : {
            kind: "refused" as const,
            why: room.refundable
              ? `free cancellation ended at ${room.cancellationDeadline}`
              : "it was booked at a non-refundable rate",
          };
      if (outcome.kind === "cancelled") settled.orphansCancelled++;
      if (outcome.kind !== "refused") continue;
      if (await this.refer(tenant, orphan, outcome.why, correlationUrn)) settled.orphansReferred++;
    }
    return settled;
  }

  /** The room as an orphan, when its reference is the tenant's and nothing holds it or may still confirm it. */
  private async orphanOf(
    tenant: string,
    vendor: string,
    room: VendorReservation,
  ): Promise<Orphan | undefined> {
    const { clientReference } = room;
    const reference = clientReference ? parseVendorBookingReference(clientReference) : undefined;
    if (!clientReference || reference?.tenant !== tenant) return undefined;
    if (await this.reservations.byVendorReservation(tenant, vendor, room.reservationId)) return undefined;
    const caseUrn = urn("case", reference.caseId);
    const ledger = await this.actors.invoke(BookingActor, reference.caseId, "groupLedger", [
      reference.groupId,
    ]);
    const listed = { vendor, reservationId: room.reservationId, idempotencyKey: reference.idempotencyKey };
    const group = {
      bookings: Object.values(ledger?.bookings ?? {}),
      reservations: Object.values(ledger?.reservations ?? {}),
    };
    if (orphanVerdict(caseUrn, group, listed) !== "orphan") return undefined;
    return {
      ...listed,
      caseUrn,
      groupId: reference.groupId,
      confirmationCode: room.confirmationCode,
      total: room.total,
      clientReference,
    };
  }

  /** Cancelled, unreachable (asked again next round), or refused by the vendor, and why. */
  private async cancel(
    tenant: string,
    vendor: InventoryVendor,
    room: VendorReservation,
    orphan: Orphan,
    correlationUrn: string,
  ): Promise<{ kind: "cancelled" } | { kind: "unreachable" } | { kind: "refused"; why: string }> {
    try {
      await vendor.cancel({
        reservationId: room.reservationId,
        idempotencyKey: vendorCancellationKey(vendor.id, room.reservationId),
      });
    } catch (error) {
      if (error instanceof VendorError && !error.retryable) {
        return { kind: "refused", why: `the vendor refused to cancel it (${error.vendorCode})` };
      }
      this.logger.warn(
        { err: error, tenant, vendor: vendor.id, vendorReservationId: room.reservationId },
        "could not cancel an orphan room at the vendor; the next round tries again",
      );
      return { kind: "unreachable" };
    }
    const announced = await this.actors.invoke(
      ReconciliationActor,
      reconciliationActorId(tenant, vendor.id),
      "settleOrphan",
      {
        settlement: {
          kind: "cancelled",
          data: {
            vendor: vendor.id,
            vendorReservationId: room.reservationId,
            confirmationCode: room.confirmationCode,
            caseUrn: orphan.caseUrn,
            groupId: orphan.groupId,
            cost: room.total,
            clientReference: orphan.clientReference,
          },
        },
        correlationUrn,
      },
    );
    if (!announced) return { kind: "cancelled" };
    await this.audit.append({
      tenant,
      actorUrn: BOOKING_SYSTEM_ACTOR,
      action: "booking.orphan-cancel",
      entityUrn: null,
      caseUrn: orphan.caseUrn,
      correlationUrn,
      reason: `${vendor.id} held booking ${room.reservationId} under the platform's reference for group ${orphan.groupId}, recorded by no reservation`,
      before: room,
      after: { ...room, status: "CANCELLED" },
    });
    this.logger.info(
      { tenant, vendor: vendor.id, vendorReservationId: room.reservationId, caseUrn: orphan.caseUrn },
      "reconciliation cancelled an orphan room at the vendor",
    );
    return { kind: "cancelled" };
  }

  /**
   * Asks for a MANUAL_RECONCILIATION item for the orphan (the item and its events are its audit),
   * once: true when asked now, false when an earlier round did.
   */
  private async refer(tenant: string, orphan: Orphan, why: string, correlationUrn: string): Promise<boolean> {
    return this.actors.invoke(
      ReconciliationActor,
      reconciliationActorId(tenant, orphan.vendor),
      "settleOrphan",
      {
        settlement: {
          kind: "referred",
          vendorReservationId: orphan.reservationId,
          request: orphanReview(orphan, why),
        },
        correlationUrn,
      },
    );
  }
}
