import { type DependencyContainer, instanceCachingFactory } from "tsyringe";
import { AcceptedPayments } from "../../src/app/booking/accepted-payments.js";
import { BookRooms } from "../../src/app/booking/book-rooms.js";
import { BookingFlow } from "../../src/app/booking/booking-flow.js";
import { type BookingSettings, DEFAULT_BOOKING_SETTINGS } from "../../src/app/booking/booking-settings.js";
import { BookingSteps, type BookingStepsDeps } from "../../src/app/booking/booking-steps.js";
import { BookingOutcomes } from "../../src/app/booking/booking-outcomes.js";
import { DirectContracts } from "../../src/app/booking/direct-contracts.js";
import { GroupBooker } from "../../src/app/booking/group-booker.js";
import { ManualReservations } from "../../src/app/booking/manual-reservations.js";
import { ReservationIndex } from "../../src/app/booking/reservation-index.js";
import { ReservationReads, type VoucherLegs } from "../../src/app/booking/reservation-reads.js";
import { VoucherTransports } from "../../src/app/transport/voucher-transport.js";
import { VendorReconciliation } from "../../src/app/booking/vendor-reconciliation.js";
import { WaveReader } from "../../src/app/booking/wave-reader.js";
import { HotelSearch } from "../../src/app/hotel-search.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { incarnationOf, registerSingletons } from "../module.js";

/** Booking's use cases, as its routes, event handlers and start-up receive them. */
export interface BookingUseCases {
  flow: BookingFlow;
  bookRooms: BookRooms;
  manual: ManualReservations;
  reads: ReservationReads;
  outcomes: BookingOutcomes;
  reconciliation: VendorReconciliation;
  reservations: ReservationIndex;
  /** The voucher's transport block, from ground transport (spec 2.8). */
  voucherLegs: VoucherLegs;
}

/**
 * The booking flow and the steps its workflow runs take their settings (and the steps the tenants'
 * cards) beside their ports, so factories build them (one instance per container); the others are
 * `@injectable` classes.
 */
export function registerBookingUseCases(container: DependencyContainer): void {
  registerSingletons(container, [
    WaveReader,
    ReservationIndex,
    DirectContracts,
    GroupBooker,
    AcceptedPayments,
    BookRooms,
    ManualReservations,
    ReservationReads,
    BookingOutcomes,
    VendorReconciliation,
  ]);
  container.register(BookingSteps, {
    useFactory: instanceCachingFactory((c) => bookingStepsOf(c)),
  });
  container.register(BookingFlow, {
    useFactory: instanceCachingFactory((c) => new BookingFlow(c.resolve(TOKENS.workflows), settingsOf(c))),
  });
}

function settingsOf(c: DependencyContainer): BookingSettings {
  return { ...DEFAULT_BOOKING_SETTINGS, ...c.resolve<Partial<BookingSettings>>(TOKENS.bookingSettings) };
}

/**
 * The booking steps as the container's ports give them, or with some of them replaced (a test
 * stands a second process, a restart, beside the first).
 */
export function bookingStepsOf(
  c: DependencyContainer,
  replaced: Partial<BookingStepsDeps> = {},
): BookingSteps {
  return new BookingSteps({
    actors: c.resolve(TOKENS.actors),
    waves: c.resolve(WaveReader),
    reservations: c.resolve(ReservationIndex),
    search: c.resolve(HotelSearch),
    vendors: c.resolve(TOKENS.vendors),
    booker: c.resolve(GroupBooker),
    contracts: c.resolve(DirectContracts),
    payments: c.resolve(AcceptedPayments),
    cardOf: c.resolve(TOKENS.bookingCards),
    logger: c.resolve(TOKENS.logger),
    settings: settingsOf(c),
    incarnation: incarnationOf(c),
    ...replaced,
  });
}

/** The instances registered in `container` by `registerBookingUseCases`. */
export function bookingUseCases(container: DependencyContainer): BookingUseCases {
  return {
    flow: container.resolve(BookingFlow),
    bookRooms: container.resolve(BookRooms),
    manual: container.resolve(ManualReservations),
    reads: container.resolve(ReservationReads),
    outcomes: container.resolve(BookingOutcomes),
    reconciliation: container.resolve(VendorReconciliation),
    reservations: container.resolve(ReservationIndex),
    voucherLegs: (reservation) => container.resolve(VoucherTransports).of(reservation),
  };
}
