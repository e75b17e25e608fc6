import { CaseActor } from "../../../actors/CaseActor.js";
import { WaveActor } from "../../../actors/WaveActor.js";
import { assertCaseOpen } from "../../domain/case-lifecycle.js";
import { DomainError } from "../../domain/domain-error.js";
import { minus, type Money, times } from "../../domain/money.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentStore } from "../../runtime/document-store.js";
import type { AuditLog } from "../audit-log.js";
import { allocationRow } from "./allocation-waves.js";
import { waveAddress } from "../../domain/allocation/wave-addresses.js";
import type { WaveAllocation } from "../../domain/allocation/wave-allocation.js";
import {
  ALLOCATIONS_COLLECTION,
  type AllocationRow,
  type WaveDocument,
  type WaveOfferRecord,
  WAVES_COLLECTION,
} from "./wave-documents.js";
import { WaveReads } from "./wave-reads.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface WaveOverrideRequest {
  principal: OperatorPrincipal;
  correlationUrn: string;
  groupId: string;
  hotelUrn: string;
  reason: string;
}

/**
 * POST /allocation/wave/{urn}/override: a supervisor moves one group of a wave to another hotel
 * the wave considered, even one the policy's gates discarded (the gates overridden are recorded).
 * Only that group's allocation changes: the others, their costs and their rooms stay as they were.
 * The change is audited with before/after, the group's allocation row follows, and the case's
 * WaveActor announces `allocation.group-overridden` so booking re-books that group alone.
 */
@injectable()
export class WaveOverrides {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(WaveReads) private readonly reads: WaveReads,
  ) {}

  async override(waveUrn: string, request: WaveOverrideRequest): Promise<WaveDocument> {
    const { actors, documents, audit, clock } = this;
    const wave = await this.reads.get(request.principal, waveUrn);
    const caseId = waveAddress(wave.urn)!.caseId;
    const record = await actors.invoke(CaseActor, caseId, "get");
    if (record) assertCaseOpen(record);

    const group = wave.groups.find((g) => g.groupId === request.groupId);
    if (!group) {
      throw new DomainError(
        "unprocessable",
        "group-not-in-wave",
        `Group ${request.groupId} is not in ${wave.urn}`,
        {
          groups: wave.groups.map((g) => g.groupId),
        },
      );
    }
    const hotel = wave.hotels.find((h) => h.hotelUrn === request.hotelUrn);
    if (!hotel) {
      throw new DomainError(
        "unprocessable",
        "hotel-not-in-wave",
        `${request.hotelUrn} was not among the hotels ${wave.urn} considered`,
      );
    }
    const before = wave.allocations.find((a) => a.groupId === group.groupId) ?? null;
    if (before?.hotelUrn === hotel.hotelUrn) {
      throw new DomainError(
        "conflict",
        "already-at-hotel",
        `Group ${group.groupId} is already allocated there`,
      );
    }
    const others = wave.allocations.filter((a) => a.groupId !== group.groupId);
    const roomsLeft = (offer: WaveOfferRecord) =>
      offer.roomsAvailable -
      others.filter((a) => a.providerOfferId === offer.providerOfferId).reduce((sum, a) => sum + a.rooms, 0);
    const priced = hotel.offers.filter(
      (o): o is WaveOfferRecord & { convertedNightlyRate: Money } => o.convertedNightlyRate !== null,
    );
    const offer = priced.find((o) => roomsLeft(o) >= group.rooms);
    if (!offer) {
      throw new DomainError(
        "conflict",
        "not-enough-rooms",
        `${hotel.name} has no offer with ${group.rooms} room(s) left in this wave`,
        { roomsNeeded: group.rooms },
      );
    }

    const at = new Date(clock.now()).toISOString();
    const roomNights = group.rooms * group.nights;
    const after: WaveAllocation = {
      groupId: group.groupId,
      hotelUrn: hotel.hotelUrn,
      vendor: offer.provider,
      providerOfferId: offer.providerOfferId,
      alternatives: priced
        .filter((o) => o !== offer)
        .map((o) => ({ vendor: o.provider, providerOfferId: o.providerOfferId, nightlyRate: o.nightlyRate })),
      rooms: group.rooms,
      nights: group.nights,
      checkIn: group.checkIn,
      checkOut: group.checkOut,
      nightlyRate: offer.convertedNightlyRate,
      cost: times(offer.convertedNightlyRate, roomNights),
      vendorNightlyRate: offer.nightlyRate,
      vendorCost: times(offer.nightlyRate, roomNights),
      savingsVsMarket: offer.marketNightlyRate
        ? times(minus(offer.marketNightlyRate, offer.convertedNightlyRate), roomNights)
        : null,
      isDirectContract: offer.isDirectContract,
      override: {
        by: request.principal.actorUrn,
        reason: request.reason,
        at,
        gatesOverridden: gatesOf(wave, offer),
      },
    };
    const allocations = wave.allocations.some((a) => a.groupId === group.groupId)
      ? wave.allocations.map((a) => (a.groupId === group.groupId ? after : a))
      : [...wave.allocations, after];
    const changes = {
      allocations,
      unallocated: wave.unallocated.filter((u) => u.groupId !== group.groupId),
      totalCost: sum(
        allocations.map((a) => a.cost),
        wave.currency,
      ),
      savingsVsMarket: sum(
        allocations.map((a) => a.savingsVsMarket),
        wave.currency,
      ),
      overrides: [
        ...wave.overrides,
        { groupId: group.groupId, by: request.principal.actorUrn, reason: request.reason, at, before, after },
      ],
      updatedAt: at,
      revision: wave.revision + 1,
    };
    const updated = await documents
      .collection<WaveDocument>(WAVES_COLLECTION)
      .updateOne({ _id: wave._id, revision: wave.revision }, { $set: changes });
    if (!updated) {
      throw new DomainError(
        "conflict",
        "wave-changed",
        `${wave.urn} changed meanwhile; reload it and try again`,
      );
    }
    await documents.collection<AllocationRow>(ALLOCATIONS_COLLECTION).put(allocationRow(updated, after));
    await audit.append({
      tenant: wave.tenant,
      actorUrn: request.principal.actorUrn,
      action: "allocation.override",
      entityUrn: wave.urn,
      caseUrn: wave.caseUrn,
      correlationUrn: request.correlationUrn,
      payload: { groupId: group.groupId, hotelUrn: hotel.hotelUrn },
      reason: request.reason,
      before,
      after,
    });
    await actors.invoke(WaveActor, caseId, "announceOverride", {
      waveUrn: wave.urn,
      caseUrn: wave.caseUrn,
      groupId: group.groupId,
      allocation: after,
      correlationUrn: request.correlationUrn,
    });
    return updated;
  }
}

/** The policy gates that had discarded the offer now chosen by hand. */
function gatesOf(wave: WaveDocument, offer: WaveOfferRecord): string[] {
  return wave.rankingInputs
    .filter((r) => r.classId === null && r.providerOfferId === offer.providerOfferId)
    .flatMap((r) => r.reasons)
    .filter((reason) => !reason.startsWith("duplicate-of:"));
}

function sum(amounts: readonly (Money | null)[], currency: string): Money {
  return { amountMinor: amounts.reduce((total, a) => total + (a?.amountMinor ?? 0), 0), currency };
}
