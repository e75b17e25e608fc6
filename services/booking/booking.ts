import type { Logger } from "pino";
import { AcceptedPayments } from "../../src/app/booking/accepted-payments.js";
import { BookRooms } from "../../src/app/booking/book-rooms.js";
import { BookingFlow, type BookingSettings } from "../../src/app/booking/booking-flow.js";
import { BookingOutcomes } from "../../src/app/booking/booking-outcomes.js";
import { DirectContracts } from "../../src/app/booking/direct-contracts.js";
import { GroupBooker } from "../../src/app/booking/group-booker.js";
import { ManualReservations } from "../../src/app/booking/manual-reservations.js";
import type { BookingCard } from "../../src/app/booking/payment-choice.js";
import { ReservationIndex } from "../../src/app/booking/reservation-index.js";
import { ReservationReads } from "../../src/app/booking/reservation-reads.js";
import { VendorReconciliation } from "../../src/app/booking/vendor-reconciliation.js";
import { WaveReader } from "../../src/app/booking/wave-document.js";
import type { AuditLog } from "../../src/app/audit-log.js";
import type { CaseChanges } from "../../src/app/cases/case-changes.js";
import type { CaseStatusCommands } from "../../src/app/cases/case-status.js";
import { DemandIndex } from "../../src/app/demand/demand-index.js";
import type { HotelSearch } from "../../src/app/hotel-search.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import type { Clock } from "../../src/runtime/clock.js";
import type { DocumentStore } from "../../src/runtime/document-store.js";
import type { InventoryVendors } from "../../src/vendors/vendor-port.js";
import { casesOf } from "../cases/cases.js";
import { hotelsOf } from "../hotels/hotels.js";
import type { ModuleContext } from "../module.js";
import { demoBookingCards } from "./booking-settings.js";

/** Booking's use cases, built once per running platform. */
export interface Booking {
  flow: BookingFlow;
  bookRooms: BookRooms;
  manual: ManualReservations;
  reads: ReservationReads;
  outcomes: BookingOutcomes;
  reconciliation: VendorReconciliation;
  reservations: ReservationIndex;
}

/** What booking is built from: the runtime's ports, the hotel side's vendors, the case commands. */
export interface BookingDeps {
  actors: ActorRuntime;
  documents: DocumentStore;
  clock: Clock;
  audit: AuditLog;
  logger: Logger;
  search: HotelSearch;
  vendors: InventoryVendors;
  cases: { changes: CaseChanges; status: CaseStatusCommands };
  cardOf: (tenant: string) => BookingCard | undefined;
  settings?: Partial<BookingSettings>;
}

const built = new WeakMap<ModuleContext, Booking>();

/** The same instances for the routes and the event handlers of one platform. */
export function bookingOf(context: ModuleContext): Booking {
  let booking = built.get(context);
  if (!booking) {
    const hotels = hotelsOf(context);
    booking = composeBooking({
      actors: context.runtime.actors,
      documents: context.runtime.documents,
      clock: context.runtime.clock,
      audit: context.audit,
      logger: context.logger,
      search: hotels.search,
      vendors: hotels.vendors,
      cases: casesOf(context),
      cardOf: demoBookingCards(),
    });
    built.set(context, booking);
  }
  return booking;
}

export function composeBooking(deps: BookingDeps): Booking {
  const { actors, documents, audit, logger, vendors } = deps;
  const waves = new WaveReader(documents);
  const reservations = new ReservationIndex(documents);
  const contracts = new DirectContracts(documents, deps.clock);
  const flow = new BookingFlow({
    actors,
    waves,
    reservations,
    search: deps.search,
    vendors,
    booker: new GroupBooker(vendors, contracts),
    contracts,
    payments: new AcceptedPayments(documents),
    cardOf: deps.cardOf,
    logger,
    ...(deps.settings ? { settings: deps.settings } : {}),
  });
  return {
    flow,
    bookRooms: new BookRooms(actors, deps.cases.changes, waves),
    manual: new ManualReservations(actors, deps.cases.changes, waves, reservations, flow, audit),
    reads: new ReservationReads(reservations, deps.cases.changes),
    outcomes: new BookingOutcomes(actors, deps.cases.status, new DemandIndex(documents), audit),
    reconciliation: new VendorReconciliation(actors, vendors, reservations, logger),
    reservations,
  };
}
