import type { ServiceModule } from "../module.js";

/** Bookings, reservations and vouchers. */
export const bookingModule: ServiceModule = {
  name: "booking",
};
