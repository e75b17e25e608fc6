import type { Logger } from "pino";
import { BookingActor } from "../../../actors/BookingActor.js";
import { ReconciliationActor, reconciliationActorId } from "../../../actors/ReconciliationActor.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { InventoryVendors } from "../../vendors/vendor-port.js";
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
}

/**
 * Polls the hotel vendors' reconciliation interfaces and brings our reservations in line with
 * what the vendors now hold (spec 6.3): a moved date, a changed room count or cost, or a hotel-side
 * cancellation. The BookingActor of the reservation's case applies each change, so a change and a
 * booking of the same case never interleave; changes to reservations that are not ours (or not
 * recorded yet) are passed over.
 */
@injectable()
export class VendorReconciliation {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.vendors) private readonly vendors: InventoryVendors,
    @inject(ReservationIndex) private readonly reservations: ReservationIndex,
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
    if (!vendor) return { listed: 0, applied: 0 };
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
    return { listed: changes.length, applied };
  }
}
