import { PASSENGER_VOUCHER_PATH, type PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import { defineRoute } from "../../src/http/route.js";
import { passengerOfferSchema } from "./passenger-schemas.js";

export const PASSENGER_OFFER_PATH = "/v1/me/offer";

const TAGS = ["Passenger"] as const;

/** The offer and its voucher, as the passenger sees them (spec 4.4). */
export function passengerOfferRoutes(offers: PassengerOffers) {
  return [
    defineRoute({
      method: "GET",
      path: PASSENGER_OFFER_PATH,
      operationId: "getPassengerOffer",
      summary:
        "The group's offer: hotel, address, coordinates, voucher QR, transport, wallet card link, state",
      description:
        "One snapshot of the group's sub-case and reservations. `status` is the sub-case's status and " +
        "`answer` the passenger's answer. `offer` is null until the compensation saga has made an offer " +
        "(a booked room is confirmed and its voucher issued before the passenger is asked), so a client " +
        "polls this read (spec 8.2: every 30 s while the offer is not terminal) or listens to " +
        "`GET /v1/me/events`. `transport` is empty and `walletCardUrl` null: the service books no ground " +
        "transport and issues no meal cards yet.",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: { 200: { description: "Where the group's offer stands", schema: passengerOfferSchema } },
      handler: async ({ principal }) => ({ status: 200, body: await offers.current(principal) }),
    }),
    defineRoute({
      method: "GET",
      path: PASSENGER_VOUCHER_PATH,
      operationId: "getPassengerVoucher",
      summary: "The printable hotel voucher, in the passenger's language",
      description:
        "The voucher of the offered stay (before an offer, of the stay the group holds) as a printable " +
        "HTML page in the language of the manifest's lead passenger (en, es, fr, de, pt; English " +
        "otherwise). 404 `voucher-not-issued` while the group holds no reservation.",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: {
        200: { description: "The voucher page", contentType: "text/html", schema: { type: "string" } },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: await offers.voucher(principal),
        headers: { "Content-Type": "text/html; charset=utf-8" },
      }),
    }),
  ];
}
