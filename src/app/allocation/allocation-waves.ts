import type { Incarnation } from "../../domain/incarnation.js";
import { CaseActor, type CaseSnapshot } from "../../../actors/CaseActor.js";
import { DemandActor } from "../../../actors/DemandActor.js";
import { WaveActor, type WaveOutcome } from "../../../actors/WaveActor.js";
import type { ReviewItemRequestedData } from "../../domain/events/review-item.js";
import type { HotelOffer } from "../../domain/allocation/offer.js";
import { verdictsAbout } from "../../domain/allocation/ranking.js";
import { planWave, type WavePlan } from "../../domain/allocation/wave.js";
import { assertCaseOpen } from "../../domain/case-lifecycle.js";
import type { Demand } from "../../domain/demand.js";
import { DomainError } from "../../domain/domain-error.js";
import { type ExchangeRates, times } from "../../domain/money.js";
import type { Policy } from "../../domain/policy/policy.js";
import type { OperatorPrincipal } from "../principals.js";
import { type Airport, airportByCode, type Directory } from "../directory.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { AirportTurns } from "./airport-turns.js";
import type { DocumentStore } from "../../runtime/document-store.js";
import type { EventBus } from "../../runtime/event-bus.js";
import { assertCaseAccess } from "../cases/case-access.js";
import { caseRefOf } from "../cases/case-changes.js";
import type { CaseStatusCommands } from "../cases/case-status.js";
import { policyForCase } from "../cases/case-policy.js";
import type { HotelSearch, HotelSearchResult } from "../hotel-search.js";
import type { ContractBook } from "../hotels/contracts.js";
import type { HotelCatalogIndex } from "../hotels/hotel-catalog.js";
import { applyOverride, type PolicyOverrides } from "../policies/policy-overrides.js";
import type { PolicyIndex } from "../policies/policy-index.js";
import { utcOffsetMinutesAt } from "../stays/airport-time.js";
import { policyCurrencyOf } from "../../domain/policy/policy-currency.js";
import { waveStepUrn } from "../../domain/allocation/wave-addresses.js";
import type { WaveAllocation } from "../../domain/allocation/wave-allocation.js";
import {
  ALLOCATIONS_COLLECTION,
  type AllocationRow,
  allocationRowId,
  type WaveDocument,
  type WaveHotelRecord,
  type WavePolicyOverride,
  type WaveRankingInput,
  type WaveTrigger,
  latestWaveOf,
  WAVES_COLLECTION,
} from "./wave-documents.js";
import { contractOffer, DIRECT_CONTRACT_PROVIDER, vendorOffersLessHeld, waveOffers } from "./wave-offers.js";
import { WaveProgress } from "./wave-progress.js";
import { type CaseStayNeeds, stayNeedsOf, type WaveStay } from "../stays/wave-stays.js";

export interface AllocationWavesDeps {
  actors: ActorRuntime;
  documents: DocumentStore;
  bus: EventBus;
  clock: Clock;
  directory: Directory;
  policies: PolicyIndex;
  search: HotelSearch;
  exchangeRates: ExchangeRates;
  contracts: ContractBook;
  catalog: HotelCatalogIndex;
  cases: Pick<CaseStatusCommands, "toManualReview">;
  /** Per-case relaxations of the policy (manual review's `relax`), applied to every wave of the case. */
  overrides: Pick<PolicyOverrides, "of">;
  /** This process: a wave an earlier start of the same node left running is taken over. */
  incarnation: Incarnation;
}

export interface WaveRequest {
  caseUrn: string;
  /** The demand served; absent: the case's latest approved demand. */
  demandUrn?: string;
  trigger: WaveTrigger;
  /** The operator who asked, checked against the case; absent for the platform's own triggers. */
  principal?: OperatorPrincipal;
  /**
   * Book the allocations as soon as the wave completes, whatever the policy says (a rerun after a
   * relaxation). Absent: automatic triggers book when the policy auto-approves or is ON_DEMAND.
   */
  autoBook?: boolean;
  /** The event that asked for the wave: it runs once per request (see WaveActor.begin). */
  requestId?: string;
  correlationUrn: string;
}

export type WaveResult =
  | { outcome: "completed"; wave: WaveDocument }
  /** No policy matched the case: it went to MANUAL_REVIEW with a POLICY_VIOLATION item. */
  | { outcome: "manual-review"; caseUrn: string; reason: string }
  /** An automatic trigger for a demand a wave already handled. */
  | { outcome: "already-handled"; caseUrn: string; handledBy: string };

/** Demand states that have approved rooms (spec 3.1); a wave serves one of them. */
const APPROVED_STATES = new Set(["APPROVED", "PARTIAL", "FULFILLED"]);
/** Hotels named in an ALLOCATION_FAILED item, most relevant first. */
const MAX_ATTEMPTED_HOTELS = 10;
const DAY_MS = 86_400_000;
/** What planning one wave starts from. */
interface WavePlanRun {
  request: WaveRequest;
  snapshot: CaseSnapshot;
  demand: Demand;
  waveUrn: string;
  sequence: number;
  progress: WaveProgress;
}

/** What a wave plans from, resolved before its airport's turn. */
type Prepared = Extract<Awaited<ReturnType<AllocationWaves["prepared"]>>, { outcome: "prepared" }>;

type WavePlanOutcome =
  | { outcome: "manual-review"; caseUrn: string; reason: string }
  | { outcome: "completed"; wave: WaveDocument; reviewItem?: ReviewItemRequestedData };

/**
 * Runs allocation waves (spec 2.6): for one case, resolve its policy, work out which
 * groups need rooms for which nights, search every vendor (2 s time-box), add the airline's direct
 * contracts, plan the wave (src/domain/allocation/wave.ts), and keep the result: the wave
 * document, one allocation row per group, and, through the case's WaveActor, the
 * `allocation.wave-completed` event (and `review-item.requested` for groups left without a hotel).
 * A case without a matching policy goes to manual review instead, and no wave is written.
 */
export class AllocationWaves {
  private readonly airportTurns: AirportTurns;

  constructor(private readonly deps: AllocationWavesDeps) {
    this.airportTurns = new AirportTurns(deps.clock);
  }

  /**
   * What a wave checks before it starts, for a composition route to refuse at once: the case exists
   * and the caller may act on it (404, 403), it is not closed, and it has approved demand (409).
   */
  async admissible(request: WaveRequest): Promise<{ snapshot: CaseSnapshot; demand: Demand }> {
    const { id: caseId, urn: caseUrn } = caseRefOf(request.caseUrn);
    const snapshot = await this.snapshot(caseId, request.principal);
    assertCaseOpen(snapshot.case);
    return { snapshot, demand: await this.demandFor(caseId, caseUrn, request.demandUrn) };
  }

  async run(request: WaveRequest): Promise<WaveResult> {
    const { actors } = this.deps;
    const { id: caseId, urn: caseUrn } = caseRefOf(request.caseUrn);
    const { snapshot, demand } = await this.admissible(request);

    const beginning = await actors.invoke(WaveActor, caseId, "begin", {
      tenant: snapshot.case.tenant,
      caseUrn,
      demandUrn: demand.urn,
      automatic: request.trigger.kind === "demand-approved" || request.trigger.kind === "batch",
      holder: this.deps.incarnation,
      ...(request.requestId ? { requestId: request.requestId } : {}),
    });
    if (beginning.kind === "handled") {
      return { outcome: "already-handled", caseUrn, handledBy: beginning.outcome };
    }
    if (beginning.kind === "busy") {
      throw new DomainError("conflict", "wave-in-progress", `Wave ${beginning.waveUrn} is still running`, {
        waveUrn: beginning.waveUrn,
      });
    }
    const { waveUrn, sequence } = beginning;
    const finish = (outcome: WaveOutcome) =>
      actors.invoke(WaveActor, caseId, "finish", {
        waveUrn,
        demandUrn: demand.urn,
        outcome,
        correlationUrn: request.correlationUrn,
      });
    const progress = new WaveProgress(this.deps.bus, this.deps.clock, {
      tenant: snapshot.case.tenant,
      caseUrn,
      stepUrn: waveStepUrn(waveUrn),
      correlationUrn: request.correlationUrn,
    });
    try {
      await progress.started("allocation-wave");
      const result = await this.plan({ request, snapshot, demand, waveUrn, sequence, progress });
      if (result.outcome === "manual-review") {
        await finish({ kind: "policy-violation" });
        await progress.completed({ outcome: "MANUAL_REVIEW", reason: result.reason });
        return result;
      }
      const { wave, reviewItem } = result;
      await finish({
        kind: "completed",
        completed: {
          waveUrn,
          caseUrn,
          demandUrn: wave.demandUrn,
          autoBook: wave.autoBook,
          allocations: wave.allocations,
        },
        ...(reviewItem ? { reviewItem } : {}),
      });
      await progress.completed({
        outcome: "WAVE_COMPLETED",
        waveUrn,
        allocated: wave.allocations.length,
        unallocated: wave.unallocated.length,
        totalCost: wave.totalCost,
      });
      return { outcome: "completed", wave };
    } catch (error) {
      await finish({ kind: "failed" });
      throw error;
    }
  }

  /**
   * What needs no turn runs before it: the policy, the groups' needs and the hotel search. The
   * search may answer before waves ahead of this one record their rows; the turn's holds read
   * (heldSince, from the answer's `searchedAt`) still subtracts them, as it does for a cached answer.
   */
  private async plan(run: WavePlanRun): Promise<WavePlanOutcome> {
    const { request, snapshot, progress } = run;
    const record = snapshot.case;
    const prepared = await this.prepared(snapshot, progress);
    if (prepared.outcome === "no-policy") {
      const { reason } = prepared;
      await this.deps.cases.toManualReview(record.urn, { reason, correlationUrn: request.correlationUrn });
      return { outcome: "manual-review", caseUrn: record.urn, reason };
    }
    const { wave, kept } = await this.airportTurns.take(`${record.tenant}|${record.flight.origin}`, () =>
      this.planAndRecord(run, prepared),
    );
    try {
      await kept;
    } catch (error) {
      await this.restoreRows(wave).catch((restoreError: unknown) => {
        throw new AggregateError(
          [error, restoreError],
          `Wave ${wave.urn} was not kept, nor its rows put back`,
        );
      });
      throw error;
    }
    await progress.progress(0.8, `${wave.allocations.length} group(s) allocated`);
    const reviewItem = wave.unallocated.length > 0 ? allocationFailed(wave, prepared.search) : undefined;
    return { outcome: "completed", wave, ...(reviewItem ? { reviewItem } : {}) };
  }

  /**
   * The airport's turn: read the holds, plan, record the allocation rows. The wave document is put
   * alongside the rows and the turn ends once the rows are in, since later waves read only the rows.
   * Either order is safe if the process dies between them: booking reads the wave document only
   * after the case's WaveActor completes the wave, which waits for both (`kept`); a wave left
   * running is taken over and re-run by the next start, and its rows (one per case and group)
   * are overwritten or deleted then. A put that fails while the process lives fails the wave, and
   * nothing re-runs a failed wave but its trigger (a redelivered event, the next batch round; an
   * operator's wave has none): its rows are put back first (`restoreRows`). When a row is what
   * failed, the wave's document is deleted first, if it went in: a failed wave is not the case's
   * latest, for `restoreRows` as for booking and reruns.
   */
  private async planAndRecord(
    run: WavePlanRun,
    prepared: Prepared,
  ): Promise<{ wave: WaveDocument; kept: Promise<void> }> {
    const { snapshot, progress } = run;
    const { offers, plan } = await this.allocated(snapshot, prepared, progress);
    const wave = this.waveDocument({ ...run, ...prepared, hotels: offers.hotels, plan });
    const waves = this.deps.documents.collection<WaveDocument>(WAVES_COLLECTION);
    const documented = waves.put(wave);
    // Awaited once the turn is over: a put that fails before then must not count as unhandled.
    void documented.catch(() => undefined);
    try {
      await this.recordAllocations(wave);
    } catch (error) {
      const unkept = documented
        .then(
          () => waves.deleteOne({ _id: wave._id }),
          () => undefined,
        )
        .then(() => Promise.reject(error));
      void unkept.catch(() => undefined);
      return { wave, kept: unkept };
    }
    return { wave, kept: documented };
  }

  /**
   * What a wave would allocate for the case now, without running one: nothing is written, no
   * event is published, no actor changes. For the shadow report (spec 4.2 "Run a drill or shadow
   * case"), which compares it with what operators did: every group is planned for, as at the
   * case's start, even those that hold a reservation now.
   */
  async preview(caseUrn: string, principal: OperatorPrincipal) {
    const { id } = caseRefOf(caseUrn);
    const snapshot = await this.snapshot(id, principal);
    const whole = { ...snapshot, reservations: [] };
    const prepared = await this.prepared(whole);
    if (prepared.outcome === "no-policy") return prepared;
    return { ...prepared, ...(await this.allocated(whole, prepared)), outcome: "planned" as const };
  }

  /** What a wave plans from, none of it read from the allocation rows: policy, needs, search. */
  private async prepared(snapshot: CaseSnapshot, progress?: WaveProgress) {
    const record = snapshot.case;
    const airport = await this.airport(record.flight.origin);
    const resolved = await policyForCase(this.deps.policies, record);
    if (!resolved) {
      const reason = `No active policy of ${record.tenant} matches airport ${airport.code} and the passengers' tiers`;
      return { outcome: "no-policy" as const, reason };
    }
    const override = await this.deps.overrides.of(record.tenant, record.urn);
    const policyOverride: WavePolicyOverride | undefined = override && {
      fields: override.fields,
      by: override.by,
      reason: override.reason,
      at: override.at,
    };
    const policy: Policy = {
      ...resolved,
      constraints: applyOverride(resolved.constraints, policyOverride?.fields),
    };
    await progress?.progress(
      0.1,
      `policy ${policy.urn} version ${policy.version}${
        policyOverride ? ` relaxed for the case: ${Object.keys(policyOverride.fields).join(", ")}` : ""
      }`,
    );

    const needs = stayNeedsOf(
      snapshot,
      utcOffsetMinutesAt(airport, Date.parse(record.flight.scheduledDeparture)),
    );
    const stay = needs.stay;
    if (!stay || needs.groups.length === 0) {
      throw new DomainError(
        "unprocessable",
        "nothing-to-allocate",
        "No group of the case needs a hotel room",
        {
          skippedGroups: needs.skipped,
        },
      );
    }
    const currency = policyCurrencyOf(airport.country);
    await progress?.progress(
      0.2,
      `searching hotels near ${airport.code} for ${stay.checkIn} to ${stay.checkOut}`,
    );
    const search = await this.deps.search.searchHotels({
      tenant: record.tenant,
      airport: airport.code,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      rooms: Math.min(...needs.groups.map((g) => g.rooms)),
    });
    return {
      outcome: "prepared" as const,
      airport,
      policy,
      ...(policyOverride ? { policyOverride } : {}),
      needs,
      stay,
      search,
      currency,
    };
  }

  /**
   * The plan from what the other cases' waves hold now (read from their allocation rows): the
   * direct contracts less their holds, the search's offers less the rooms allocated since it
   * answered, and the engine.
   */
  private async allocated(snapshot: CaseSnapshot, prepared: Prepared, progress?: WaveProgress) {
    const record = snapshot.case;
    const { airport, policy, needs, stay, search, currency } = prepared;
    const contracts = await this.contractOffers(record.tenant, record.urn, airport.code, stay);
    await progress?.progress(
      0.5,
      `${search.hotels.length} hotel(s) from ${search.vendorsAnswered.length} vendor(s), ${contracts.length} contract(s)`,
    );

    const heldSince = await this.deps.documents.collection<AllocationRow>(ALLOCATIONS_COLLECTION).findAll({
      tenant: record.tenant,
      caseUrn: { $ne: record.urn },
      provider: { $ne: DIRECT_CONTRACT_PROVIDER },
      checkIn: { $lt: stay.checkOut },
      checkOut: { $gt: stay.checkIn },
      allocatedAt: { $gte: search.searchedAt },
    });
    const rates = this.deps.exchangeRates;
    const offers = waveOffers(vendorOffersLessHeld(search.hotels, heldSince), contracts, {
      airport,
      currency,
      rates,
    });
    const plan = planWave({
      groups: needs.groups.map((g) => ({ ...g, nights: stay.nights })),
      offers: offers.offers,
      policy: wavePolicy(policy),
      airport,
      currency,
      rates,
    });
    return { offers, plan };
  }

  private waveDocument(run: {
    request: WaveRequest;
    snapshot: CaseSnapshot;
    demand: Demand;
    waveUrn: string;
    sequence: number;
    /** With the case's override applied. */
    policy: Policy;
    policyOverride?: WavePolicyOverride;
    needs: CaseStayNeeds;
    stay: WaveStay;
    search: HotelSearchResult;
    hotels: WaveHotelRecord[];
    plan: WavePlan;
    currency: string;
  }): WaveDocument {
    const { request, snapshot, policy, stay, plan, hotels } = run;
    const now = new Date(this.deps.clock.now()).toISOString();
    const automatic = request.trigger.kind === "demand-approved" || request.trigger.kind === "batch";
    return {
      _id: run.waveUrn,
      urn: run.waveUrn,
      tenant: snapshot.case.tenant,
      caseUrn: snapshot.case.urn,
      airport: snapshot.case.flight.origin,
      sequence: run.sequence,
      demandUrn: run.demand.urn,
      policyUrn: policy.urn,
      policyVersion: policy.version,
      ...(run.policyOverride ? { policyOverride: run.policyOverride } : {}),
      status: "COMPLETED",
      trigger: request.trigger,
      autoBook: request.autoBook ?? (automatic && (policy.autoApproveDemand || policy.mode === "ON_DEMAND")),
      currency: run.currency,
      groups: run.needs.groups.map((g) => ({
        ...g,
        nights: stay.nights,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
      })),
      skippedGroups: run.needs.skipped,
      hotels,
      rankingClasses: plan.rankingClasses,
      rankingInputs: plan.rankingInputs,
      allocations: plan.allocations.map((allocation) => {
        const hotel = hotels.find((h) => h.hotelUrn === allocation.hotelUrn)!;
        const offerOf = (id: string) => hotel.offers.find((o) => o.providerOfferId === id)!;
        const offer = offerOf(allocation.providerOfferId);
        return {
          groupId: allocation.groupId,
          hotelUrn: allocation.hotelUrn,
          vendor: allocation.provider,
          providerOfferId: allocation.providerOfferId,
          alternatives: allocation.alternativeOfferIds.map((id) => {
            const alternative = offerOf(id);
            return {
              vendor: alternative.provider,
              providerOfferId: id,
              nightlyRate: alternative.nightlyRate,
            };
          }),
          rooms: allocation.rooms,
          nights: allocation.nights,
          checkIn: stay.checkIn,
          checkOut: stay.checkOut,
          nightlyRate: offer.convertedNightlyRate!,
          cost: allocation.cost,
          vendorNightlyRate: offer.nightlyRate,
          vendorCost: times(offer.nightlyRate, allocation.rooms * allocation.nights),
          savingsVsMarket: allocation.savingsVsMarket,
          isDirectContract: offer.isDirectContract,
        } satisfies WaveAllocation;
      }),
      unallocated: [...plan.unallocated],
      totalCost: plan.totalCost,
      savingsVsMarket: plan.savingsVsMarket,
      vendorsAnswered: run.search.vendorsAnswered,
      vendorsMissing: run.search.vendorsMissing,
      searchedAt: run.search.searchedAt,
      overrides: [],
      createdAt: now,
      updatedAt: now,
      revision: 1,
    };
  }

  /**
   * One row per group of the wave: its allocation, or none when the wave left it without a hotel.
   * Fails once every write has settled, so that rows put back (`restoreRows`) are not overwritten
   * by a put still on its way.
   */
  private async recordAllocations(wave: WaveDocument): Promise<void> {
    const rows = this.deps.documents.collection<AllocationRow>(ALLOCATIONS_COLLECTION);
    const written = await Promise.allSettled([
      ...wave.allocations.map((allocation) => rows.put(allocationRow(wave, allocation))),
      ...wave.unallocated.map(({ groupId }) =>
        rows.deleteOne({ _id: allocationRowId(wave.caseUrn, groupId) }),
      ),
    ]);
    const failed = written.find((write) => write.status === "rejected");
    if (failed) throw failed.reason;
  }

  /**
   * The rows of a wave that was not kept, for its groups, back as the case's latest wave has them
   * (none before the case's first wave): the rooms it recorded are no longer held from other cases.
   * The case's WaveActor still holds the wave as running, so no other wave of the case writes them.
   */
  private async restoreRows(wave: WaveDocument): Promise<void> {
    const latest = await latestWaveOf(this.deps.documents, wave.tenant, wave.caseUrn);
    const rows = this.deps.documents.collection<AllocationRow>(ALLOCATIONS_COLLECTION);
    await Promise.all(
      [...wave.allocations, ...wave.unallocated].map(({ groupId }) => {
        const held = latest?.allocations.find((a) => a.groupId === groupId);
        return latest && held
          ? rows.put(allocationRow(latest, held))
          : rows.deleteOne({ _id: allocationRowId(wave.caseUrn, groupId) });
      }),
    );
  }

  /** Contracts covering the stay, less the rooms other cases' waves already hold under them. */
  private async contractOffers(
    tenant: string,
    caseUrn: string,
    airport: string,
    stay: WaveStay,
  ): Promise<HotelOffer[]> {
    const lastNight = new Date(Date.parse(stay.checkOut) - DAY_MS).toISOString().slice(0, 10);
    const contracts = await this.deps.contracts.coveringStay(tenant, airport, {
      checkIn: stay.checkIn,
      lastNight,
    });
    if (contracts.length === 0) return [];
    const held = await this.deps.documents.collection<AllocationRow>(ALLOCATIONS_COLLECTION).findAll({
      tenant,
      caseUrn: { $ne: caseUrn },
      provider: DIRECT_CONTRACT_PROVIDER,
      checkIn: { $lt: stay.checkOut },
      checkOut: { $gt: stay.checkIn },
    });
    const offers: HotelOffer[] = [];
    for (const contract of contracts) {
      const hotel = await this.deps.catalog.get(contract.hotelUrn);
      if (hotel) offers.push(contractOffer(contract, hotel, held));
    }
    return offers;
  }

  private async snapshot(caseId: string, principal: OperatorPrincipal | undefined): Promise<CaseSnapshot> {
    const snapshot = await this.deps.actors.invoke(CaseActor, caseId, "snapshot");
    if (!snapshot) throw new DomainError("not-found", "case", `No case urn:case:${caseId}`);
    if (principal) assertCaseAccess(principal, snapshot.case);
    return snapshot;
  }

  /** The named demand of the case, or its latest, once approved (spec 3.1: approval enqueues allocation). */
  private async demandFor(caseId: string, caseUrn: string, demandUrn: string | undefined): Promise<Demand> {
    const ledger = await this.deps.actors.invoke(DemandActor, caseId, "get");
    const demands = ledger?.demands ?? [];
    if (demandUrn) {
      const named = demands.find((d) => d.urn === demandUrn);
      if (!named) throw new DomainError("not-found", "demand", `No demand ${demandUrn} for ${caseUrn}`);
      if (!APPROVED_STATES.has(named.state)) {
        throw new DomainError("conflict", "demand-not-approved", `Demand ${demandUrn} is ${named.state}`, {
          state: named.state,
        });
      }
      return named;
    }
    const approved = demands.filter((d) => APPROVED_STATES.has(d.state)).at(-1);
    if (!approved) {
      throw new DomainError(
        "conflict",
        "no-approved-demand",
        `${caseUrn} has no approved demand: request rooms and have them approved first`,
      );
    }
    return approved;
  }

  /** The airport where the passengers wait, from the directory of airlines and their airports. */
  private async airport(code: string): Promise<Airport> {
    const airport = await airportByCode(this.deps.directory, code);
    if (!airport) {
      throw new DomainError(
        "unprocessable",
        "unknown-airport",
        `No coordinates are known for airport ${code}`,
        {
          airport: code,
        },
      );
    }
    return airport;
  }
}

/**
 * The policy as the wave engine reads it. Direct contracts are the airline's own deals, not a
 * vendor: a policy restricting vendors (allowProviders) still lets them take part.
 */
function wavePolicy(policy: Policy) {
  const { allowProviders, ...constraints } = policy.constraints;
  return {
    tiers: policy.tiers,
    constraints: {
      ...constraints,
      ...(allowProviders && allowProviders.length > 0
        ? { allowProviders: [...allowProviders, DIRECT_CONTRACT_PROVIDER] }
        : {}),
    },
    allocationWeights: policy.allocationWeights,
  };
}

export function allocationRow(
  wave: Pick<WaveDocument, "caseUrn" | "tenant" | "urn" | "updatedAt">,
  allocation: Pick<
    WaveAllocation,
    "groupId" | "rooms" | "hotelUrn" | "vendor" | "providerOfferId" | "checkIn" | "checkOut"
  >,
): AllocationRow {
  return {
    _id: allocationRowId(wave.caseUrn, allocation.groupId),
    tenant: wave.tenant,
    caseUrn: wave.caseUrn,
    groupId: allocation.groupId,
    rooms: allocation.rooms,
    waveUrn: wave.urn,
    hotelUrn: allocation.hotelUrn,
    provider: allocation.vendor,
    providerOfferId: allocation.providerOfferId,
    checkIn: allocation.checkIn,
    checkOut: allocation.checkOut,
    allocatedAt: wave.updatedAt,
  };
}

/**
 * The ALLOCATION_FAILED request (spec 2.5): the groups the wave could not house, and the hotels it
 * weighed for them with the reason each was not used: first the hotels that could have taken them
 * (full, too small), then those the policy's gates discarded.
 */
function allocationFailed(wave: WaveDocument, search: HotelSearchResult): ReviewItemRequestedData {
  const affected = new Set(wave.unallocated.map((u) => u.groupId));
  const reasons = new Map<string, string>();
  const consider = (entries: readonly WaveRankingInput[]) => {
    for (const entry of entries)
      if (!reasons.has(entry.hotelUrn)) reasons.set(entry.hotelUrn, entry.reasons[0] ?? "");
  };
  consider(verdictsAbout(wave.rankingInputs, wave.rankingClasses, affected));
  consider(wave.rankingInputs.filter((r) => r.classId === null));
  const missing = search.vendorsMissing.map((v) => `${v.vendor} (${v.reason})`);
  const why = wave.unallocated.map((u) => `${u.groupId}: ${u.reason}`).join("; ");
  return {
    caseUrn: wave.caseUrn,
    category: "ALLOCATION_FAILED",
    attemptedHotels: [...reasons]
      .slice(0, MAX_ATTEMPTED_HOTELS)
      .map(([hotelUrn, reason]) => ({ hotelUrn, reason })),
    affectedGroups: [...affected],
    reason: `Wave ${wave.urn} found no policy-compliant hotel with room for ${affected.size} group(s): ${why}${
      missing.length > 0 ? `; vendors that did not answer: ${missing.join(", ")}` : ""
    }`,
    ...(wave.demandUrn ? { demandUrn: wave.demandUrn } : {}),
    waveUrn: wave.urn,
  };
}
