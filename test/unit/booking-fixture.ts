/**
 * Booking wired as the platform wires it (case, demand, booking and reconciliation actors; the
 * book-groups workflow; the booking subscriptions; the hotel vendor simulators behind real vendor
 * clients), on an embedded runtime with memory stores and a ManualClock, without the allocation
 * side: tests hand booking a synthetic wave built from a real search, as allocation would.
 */
import { pino } from "pino";
import type { DependencyContainer } from "tsyringe";
import { BookingActor, type BookingLedger } from "../../actors/BookingActor.js";
import { CaseActor, type CaseSnapshot } from "../../actors/CaseActor.js";
import { DemandActor } from "../../actors/DemandActor.js";
import { ReconciliationActor } from "../../actors/ReconciliationActor.js";
import { type BookingUseCases, bookingUseCases } from "../../services/booking/booking-use-cases.js";
import { bookingSubscriptions } from "../../services/booking/booking-subscriptions.js";
import { demoVendorSettings } from "../../services/hotels/vendor-settings.js";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import {
  SIMULATOR_EXCHANGE_RATES,
  type VendorSimulators,
  createVendorSimulators,
} from "../../services/vendor-sim/simulators.js";
import { AuditLog } from "../../src/app/audit-log.js";
import { BookingSteps } from "../../src/app/booking/booking-steps.js";
import { DocumentAuditTrail } from "../../src/app/document-audit-trail.js";
import { BOOKING_EVENTS } from "../../src/domain/events/booking.js";
import { WAVES_COLLECTION } from "../../src/app/allocation/wave-documents.js";
import type { BookingAllocation, BookingWave } from "../../src/app/booking/wave-reader.js";
import { HotelSearch } from "../../src/app/hotel-search.js";
import type { Hotel } from "../../src/domain/allocation/dedup.js";
import type { HotelOffer } from "../../src/domain/allocation/offer.js";
import { caseIdFor, type PassengerGroup } from "../../src/domain/case.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { money } from "../../src/domain/money.js";
import { urn } from "../../src/domain/urn.js";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { DocumentPassengerDirectory } from "../../src/passenger-identity/document-passenger-directory.js";
import { moduleContainer } from "../support/container.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { EmbeddedWorkflowEngine } from "../../src/runtime/embedded/workflow-engine.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { registerBookGroups } from "../../src/workflows/book-groups/registration.js";
import { TenantInventoryVendors } from "../../src/vendors/tenant-vendors.js";
import { recordEvents } from "../support/event-recorder.js";

export const ZX = "urn:airline:ZX";
export const CHECK_IN = "2026-11-21";
export const CHECK_OUT = "2026-11-22";
const correlationUrn = "urn:trace:0123456789abcdef0123456789abcdef";
/** Who loads a wave for booking in these tests: the system, on one trace. */
export const ACTING = { requestedBy: "urn:user:system", correlationUrn };

export interface BookingHarness {
  clock: ManualClock;
  actors: EmbeddedActorRuntime;
  bus: EmbeddedEventBus;
  documents: MemoryDocumentStore;
  simulators: VendorSimulators;
  booking: BookingUseCases;
  /** The platform's container (a test builds a second process's booking steps from it). */
  container: DependencyContainer;
  events: DomainEvent[];
  /** Every hotel the vendors offer at JFK for the test stay, deduplicated, in search order. */
  hotels: Hotel[];
  openCase(name: string, groups: PassengerGroup[]): Promise<string>;
  /** INITIAL demand for the case, approved by a supervisor. */
  approvedDemand(caseUrn: string, rooms: number): Promise<string>;
  /** Stores the wave and publishes `allocation.wave-completed`, as allocation does. */
  completeWave(wave: CompletedWave, autoBook?: boolean): Promise<string>;
  publish(type: string, caseUrn: string, data: unknown): Promise<DomainEvent>;
  /** The bookings and reservations of the case's groups. */
  ledger(caseUrn: string): Promise<BookingLedger>;
  caseSnapshot(caseUrn: string): Promise<CaseSnapshot>;
  demandState(caseUrn: string): Promise<string | undefined>;
  eventsOf(type: string, caseUrn?: string): DomainEvent[];
  /** Lets the outbox and the subscriptions run until `done` holds; fails after a bounded number of rounds. */
  until(done: () => boolean | Promise<boolean>, what: string): Promise<void>;
  close(): Promise<void>;
}

/** Groups of economy passengers; each needs ceil(n / 2) rooms. */
export function groups(...sizes: number[]): PassengerGroup[] {
  return sizes.map((size, g) => ({
    id: `G${g + 1}`,
    pnr: `PNR00${g + 1}`,
    passengers: Array.from({ length: size }, (_, p) => ({
      id: `G${g + 1}-p${p + 1}`,
      firstName: `First${p + 1}`,
      lastName: `Last${g + 1}`,
      tier: "ECONOMY",
      contact: { email: `g${g + 1}p${p + 1}@example.com`, phone: "+14155550100" },
    })),
  }));
}

/** An allocation of the group to the hotel through `offer`, with the hotel's other offers as alternatives. */
export function allocate(
  groupId: string,
  hotel: Hotel,
  rooms: number,
  offer: HotelOffer = hotel.offers[0]!,
): BookingAllocation {
  return {
    groupId,
    hotelUrn: hotel.hotelUrn,
    vendor: offer.provider,
    providerOfferId: offer.providerOfferId,
    alternatives: hotel.offers
      .filter((o) => o !== offer)
      .map((o) => ({ vendor: o.provider, providerOfferId: o.providerOfferId, nightlyRate: o.nightlyRate })),
    rooms,
    nights: 1,
    checkIn: CHECK_IN,
    checkOut: CHECK_OUT,
    cost: money(10_000 * rooms, "USD"),
  };
}

/** A completed wave as `completeWave` takes it: the stored document less what the harness fills in. */
export type CompletedWave = Omit<BookingWave, "_id" | "tenant" | "status" | "createdAt">;

/**
 * A wave of the case with no policy behind it and nothing left unallocated, the wave most tests
 * book: each sets only its allocations and, where the test is about them, the demand or ranking.
 */
export function waveOf(
  caseUrn: string,
  allocations: BookingAllocation[],
  rest: Partial<CompletedWave> = {},
): CompletedWave {
  return {
    caseUrn,
    demandUrn: null,
    policyUrn: null,
    policyVersion: null,
    rankingInputs: [],
    allocations,
    unallocated: [],
    ...rest,
  };
}

/** Hotels every offer of which takes a guarantee, with at least `vendors` vendors listing them. */
export function guaranteeHotels(hotels: readonly Hotel[], vendors = 1): Hotel[] {
  return hotels.filter(
    (h) => h.offers.length >= vendors && h.offers.every((o) => o.payments.includes("GUARANTEE")),
  );
}

export async function startBookingHarness(
  options: { retryInMs?: number; maxRetries?: number } = {},
): Promise<BookingHarness> {
  const clock = new ManualClock(`${CHECK_IN}T12:00:00Z`);
  const bus = new EmbeddedEventBus({ clock });
  const state = new MemoryStateStore();
  const actors = new EmbeddedActorRuntime({ store: state, bus, clock });
  for (const actor of [CaseActor, DemandActor, BookingActor, ReconciliationActor]) actors.register(actor);
  const registry = new WorkflowRegistry();
  registerBookGroups(registry, () => platform.resolve(BookingSteps));
  const workflows = new EmbeddedWorkflowEngine({ registry, store: state, clock });
  const documents = new MemoryDocumentStore();
  const audit = new AuditLog(new DocumentAuditTrail(documents), clock);
  const logger = pino({ level: "silent" });

  const simulators = createVendorSimulators({ seed: "booking-tests", clock });
  const settingsOf = demoVendorSettings();
  // Lifted throttles, no client-side retries and a breaker that opens on the first outage: each
  // test decides every vendor answer with the simulators' fault injection.
  const vendors = new TenantInventoryVendors({
    settingsOf: (tenant) => {
      const settings = settingsOf(tenant);
      return {
        ...settings,
        accounts: settings.accounts.map((a) => ({ ...a, limits: { inventory: 1_000, booking: 1_000 } })),
      };
    },
    mockTransportOf: (vendor) => inProcessTransport(simulators.byId[vendor as SimulatedVendorId]),
    clock,
    client: {
      retry: {
        booking: { maxAttempts: 1, baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 1 },
        inventory: { maxAttempts: 1, baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 1 },
      },
      breaker: { failureThreshold: 1, coolDownMs: 30_000 },
    },
  });
  const platform = moduleContainer({
    actors,
    workflows,
    documents,
    clock,
    audit,
    logger,
    vendors,
    exchangeRates: SIMULATOR_EXCHANGE_RATES,
    passengerLogins: new DocumentPassengerDirectory(documents),
    caseRevocations: new CaseRevocations(documents),
    bookingCards: () => undefined,
    bookingSettings: { retryInMs: options.retryInMs ?? 30_000, maxRetries: options.maxRetries ?? 3 },
  });
  const booking = bookingUseCases(platform);
  const search = platform.resolve(HotelSearch);
  for (const subscription of bookingSubscriptions([ZX], () => ({ booking, logger })))
    bus.subscribe(subscription);
  const events = recordEvents(bus, { name: "test-recorder", topic: topicFor({ tenant: ZX }) });
  await actors.start();
  await workflows.start();

  const found = await search.searchHotels({
    tenant: ZX,
    airport: "JFK",
    checkIn: CHECK_IN,
    checkOut: CHECK_OUT,
    rooms: 1,
  });
  const until = async (done: () => boolean | Promise<boolean>, what: string) => {
    for (let round = 0; round < 400; round++) {
      if (await done()) return;
      await settle(3);
    }
    throw new Error(`gave up waiting for ${what}; events: ${events.map((e) => e.type).join(", ")}`);
  };
  const publish = async (type: string, caseUrn: string, data: unknown) => {
    const event: DomainEvent = {
      id: urn("event"),
      type,
      tenant: ZX,
      occurredAt: new Date(clock.now()).toISOString(),
      correlationUrn,
      caseUrn,
      data,
    };
    await bus.publish(topicFor(event), event);
    return event;
  };

  return {
    clock,
    actors,
    bus,
    documents,
    simulators,
    booking,
    container: platform,
    events,
    hotels: found.hotels,
    async openCase(name, passengerGroups) {
      const result = await actors.invoke(CaseActor, caseIdFor(ZX, name), "open", {
        tenant: ZX,
        externalEventId: name,
        flight: {
          number: "ZX100",
          origin: "JFK",
          destination: "LHR",
          scheduledDeparture: `${CHECK_IN}T22:00:00Z`,
          status: "CANCELLED",
        },
        nextFlight: { number: "ZX102", scheduledDeparture: `${CHECK_OUT}T18:00:00Z` },
        passengerGroups,
        openedBy: "urn:user:supervisor",
        correlationUrn,
        intake: { source: "operator" },
      });
      return result.snapshot.case.urn;
    },
    async approvedDemand(caseUrn, rooms) {
      const caseId = caseUrn.split(":").at(-1)!;
      const requested = await actors.invoke(DemandActor, caseId, "request", {
        tenant: ZX,
        caseUrn,
        airport: "JFK",
        type: "INITIAL",
        roomsRequested: rooms,
        requestedBy: "urn:user:operator",
        correlationUrn,
      });
      await actors.invoke(DemandActor, caseId, "approve", {
        urn: requested.after.urn,
        by: "urn:user:supervisor",
        reason: "stranded overnight",
        correlationUrn,
      });
      return requested.after.urn;
    },
    async completeWave(wave, autoBook = true) {
      const waveUrn = urn("wave");
      const document: BookingWave = {
        ...wave,
        _id: waveUrn,
        tenant: ZX,
        status: "COMPLETED",
        createdAt: new Date(clock.now()).toISOString(),
      };
      await documents.collection<BookingWave>(WAVES_COLLECTION).insert(document);
      await publish(BOOKING_EVENTS.waveCompleted, wave.caseUrn, {
        waveUrn,
        caseUrn: wave.caseUrn,
        demandUrn: wave.demandUrn,
        autoBook,
        allocations: wave.allocations,
      });
      return waveUrn;
    },
    publish,
    async ledger(caseUrn) {
      const caseId = caseUrn.split(":").at(-1)!;
      const snapshot: CaseSnapshot | undefined = await actors.invoke(CaseActor, caseId, "snapshot");
      const groupIds = snapshot?.case.passengerGroups.map((g) => g.id) ?? [];
      const ledger = await actors.invoke(BookingActor, caseId, "groupLedger", groupIds);
      if (!ledger) throw new Error(`no booking ledger for ${caseUrn}`);
      return ledger;
    },
    async caseSnapshot(caseUrn) {
      const snapshot = await actors.invoke(CaseActor, caseUrn.split(":").at(-1)!, "snapshot");
      if (!snapshot) throw new Error(`no case ${caseUrn}`);
      return snapshot;
    },
    async demandState(caseUrn) {
      const ledger = await actors.invoke(DemandActor, caseUrn.split(":").at(-1)!, "get");
      return ledger?.demands[0]?.state;
    },
    eventsOf(type, caseUrn) {
      return events.filter((e) => e.type === type && (caseUrn === undefined || e.caseUrn === caseUrn));
    },
    until,
    async close() {
      await workflows.close();
      await actors.close();
      await bus.close();
    },
  };
}
