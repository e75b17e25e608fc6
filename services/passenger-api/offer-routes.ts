import { PASSENGER_VOUCHER_PATH, type PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import { defineRoute } from "../../src/http/route.js";
import { serialisedOnce } from "../../src/http/serialised-body.js";
import { declineBody, passengerOfferSchema } from "./passenger-schemas.js";

export const PASSENGER_OFFER_PATH = "/v1/me/offer";

/**
 * A write that changes a passenger read answers with that read's new representation and names it
 * in `Content-Location`: a cache holding the read drops it on seeing the answer (RFC 9111 4.4), so
 * the passenger's own private cache (`Cache-Control: private, max-age=60`) is purged of it.
 */
export const REFRESHES_OFFER = { "Content-Location": PASSENGER_OFFER_PATH };

const refreshedOffer = {
  description: "The offer as it now stands",
  schema: passengerOfferSchema,
  headers: { "Content-Location": { description: "`/v1/me/offer`, which this answer refreshes" } },
};

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
        "`GET /v1/me/events`. `transport` lists the group's booked rides (empty while none is booked); " +
        "`walletCardUrl` is `/v1/me/wallet` while the group holds a loaded meal card, else null.",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: { 200: { description: "Where the group's offer stands", schema: passengerOfferSchema } },
      // The offer kept for the group is the same object until it changes: its JSON is written once.
      handler: async ({ principal }) => ({
        status: 200,
        body: serialisedOnce(await offers.current(principal)),
      }),
    }),
    defineRoute({
      method: "POST",
      path: `${PASSENGER_OFFER_PATH}/accept`,
      operationId: "acceptPassengerOffer",
      summary: "Accept the offer: the sub-case becomes RESOLVED",
      description:
        "Accepting again answers as the first accept did (nothing is published again). 409 " +
        "`offer-already-declined` when the offer was declined, `offer-not-ready` when there is no offer " +
        "to answer (reload `GET /v1/me/offer`).",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: { 200: refreshedOffer },
      handler: async ({ principal, correlationUrn }) => ({
        status: 200,
        body: await offers.accept(principal, correlationUrn),
        headers: REFRESHES_OFFER,
      }),
    }),
    defineRoute({
      method: "POST",
      path: `${PASSENGER_OFFER_PATH}/decline`,
      operationId: "declinePassengerOffer",
      summary: "Decline the offer, with a reason: the saga rolls the stay back and the operators are alerted",
      description:
        "409 `offer-already-accepted` or `offer-already-declined` when the offer was already answered, " +
        "`offer-not-ready` when there is no offer to answer.",
      tags: TAGS,
      access: { kind: "passenger" },
      body: declineBody,
      responses: { 200: refreshedOffer },
      handler: async ({ principal, body, correlationUrn }) => ({
        status: 200,
        body: await offers.decline(principal, body.reason, correlationUrn),
        headers: REFRESHES_OFFER,
      }),
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
