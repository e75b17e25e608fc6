import type { PassengerCheckIn } from "../../src/app/passengers/passenger-check-in.js";
import type { PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import type { PassengerProblems } from "../../src/app/passengers/passenger-problem.js";
import type { PassengerSnapshots } from "../../src/app/passengers/passenger-snapshot.js";
import type { PassengerTransports } from "../../src/app/passengers/passenger-transport.js";
import { passengerWalletOf } from "../../src/app/passengers/passenger-wallet.js";
import type { Principal } from "../../src/app/principals.js";
import type { WalletReads } from "../../src/app/wallet/wallet-reads.js";
import { defineRoute } from "../../src/http/route.js";
import { REFRESHES_OFFER } from "./offer-routes.js";
import {
  passengerOfferSchema,
  passengerTransportSchema,
  passengerWalletSchema,
  problemBody,
  reportedProblemSchema,
  walletRevealSchema,
} from "./passenger-schemas.js";

const TAGS = ["Passenger"] as const;

export interface PassengerStayUseCases {
  snapshots: PassengerSnapshots;
  offers: PassengerOffers;
  checkIn: PassengerCheckIn;
  problems: PassengerProblems;
  wallets: WalletReads;
  transport: PassengerTransports;
}

/** The stay and what surrounds it: check-in, meal card, transport, problems (spec 4.4). */
export function passengerStayRoutes(useCases: PassengerStayUseCases) {
  const { snapshots, offers, wallets } = useCases;
  return [
    defineRoute({
      method: "POST",
      path: "/v1/me/check-in",
      operationId: "checkInPassenger",
      summary: "Self check-in on arrival at the hotel: the group's reservation becomes CHECKED_IN",
      description:
        "Checking in again changes nothing. 404 `reservation` when the group holds no reservation, 409 " +
        "`reservation-not-checkable` when its stay was cancelled or checked out. Answers with the offer " +
        "as it now stands (`Content-Location: /v1/me/offer`).",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: {
        200: {
          description: "Checked in; the offer as it now stands",
          schema: passengerOfferSchema,
          headers: { "Content-Location": { description: "`/v1/me/offer`, which this answer refreshes" } },
        },
      },
      audit: {
        subject: ({ principal, ctx }) => ({
          entityUrn: (ctx.state as CheckInState).checkedIn ?? null,
          caseUrn: sessionCase(principal),
        }),
      },
      handler: async ({ principal, correlationUrn, ctx }) => {
        const { reservation } = await useCases.checkIn.checkIn(principal, correlationUrn);
        (ctx.state as CheckInState).checkedIn = reservation.urn;
        return { status: 200, body: await offers.changed(principal), headers: REFRESHES_OFFER };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/me/wallet",
      operationId: "getPassengerWallet",
      summary: "The group's virtual meal card: balance, available, transactions",
      description:
        "The group's latest card (a cancelled one too), amounts in minor units; `card` is null while the group " +
        "holds none. Never the card number: `GET /v1/me/wallet/reveal` gives the issuer's page that shows it.",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: { 200: { description: "The meal card, if one is issued", schema: passengerWalletSchema } },
      handler: async ({ principal }) => {
        const { subCase } = await snapshots.of(principal);
        return {
          status: 200,
          body: passengerWalletOf(await wallets.cardOfGroup(subCase.caseUrn, subCase.groupId)),
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/me/wallet/reveal",
      operationId: "revealPassengerWalletCard",
      summary: "A short-lived URL of the card issuer's hosted page that shows the card number",
      description:
        "Spec 4.4: a URL of the card issuer's hosted page, valid a few minutes, that shows the card number, " +
        "expiry and verification code; none of them passes through this service. 404 `wallet-card-not-issued` " +
        "while the group holds no LOADED card.",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: { 200: { description: "Where the card number is shown", schema: walletRevealSchema } },
      handler: async ({ principal }) => {
        const { subCase } = await snapshots.of(principal);
        return { status: 200, body: await wallets.reveal(subCase.tenant, subCase.caseUrn, subCase.groupId) };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/me/transport",
      operationId: "getPassengerTransport",
      summary: "The group's ground transport: status (booked, pending, declined) and legs",
      description:
        "Each leg to or from the hotel with its status, pickup place and time, vehicle or driver, dispatcher " +
        "number and the provider's ETA (which also arrives on `GET /v1/me/events` as `transport.eta-updated`). " +
        "`status` is PENDING while a leg waits for the ride provider, else BOOKED, else DECLINED; NONE when no " +
        "leg stands. `onDemand` says whether `POST /v1/me/transport/request` is open, and why.",
      tags: TAGS,
      access: { kind: "passenger" },
      responses: { 200: { description: "The group's transport", schema: passengerTransportSchema } },
      handler: async ({ principal }) => ({
        status: 200,
        body: await useCases.transport.of(principal),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/me/transport/request",
      operationId: "requestPassengerTransport",
      summary: "Ask for on-demand transport, only when the case's policy allows",
      description:
        "Books the group's ride to its hotel (`direction` AIRPORT_TO_HOTEL, the default) or back to the airport " +
        "before the next flight (HOTEL_TO_AIRPORT), in the vehicle the policy gives the group's tier. 403 " +
        "`transport-not-allowed`, with the reason, unless the case's policy sets `transport.passengerMayRequest`; " +
        "409 `transport-not-possible` while the group holds no reservation. Asking again books no second ride.",
      tags: TAGS,
      access: { kind: "passenger" },
      body: {
        type: "object",
        properties: { direction: { type: "string", enum: ["AIRPORT_TO_HOTEL", "HOTEL_TO_AIRPORT"] } },
      },
      responses: {
        202: {
          description: "The ride is asked for; the group's transport",
          schema: passengerTransportSchema,
        },
        403: { description: "The case's policy does not let passengers ask for a ride" },
        409: {
          description:
            "The group holds no reservation yet (or, back to the airport, the case no next flight)",
        },
      },
      handler: async ({ principal, body, correlationUrn }) => ({
        status: 202,
        body: await useCases.transport.request(
          principal,
          body.direction ?? "AIRPORT_TO_HOTEL",
          correlationUrn,
        ),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/me/problem",
      operationId: "reportPassengerProblem",
      summary: "Report a problem: a manual-review item for the operators, with the passenger's text",
      description:
        "Opens a PASSENGER_REPORTED review item (priority MEDIUM) of the session's group in the operators' " +
        "manual-review queue (`GET /v1/booking/manual-review`), with the text as its `reason`.",
      tags: TAGS,
      access: { kind: "passenger" },
      body: problemBody,
      responses: { 201: { description: "The review item opened", schema: reportedProblemSchema } },
      audit: {
        subject: ({ principal }, response) => ({
          entityUrn: (response.body as { reviewItemUrn?: string } | undefined)?.reviewItemUrn ?? null,
          caseUrn: sessionCase(principal),
        }),
      },
      handler: async ({ principal, body, correlationUrn }) => ({
        status: 201,
        body: await useCases.problems.report(principal, body.text, correlationUrn),
      }),
    }),
  ];
}

/** What the check-in handler leaves for its audit entry: the reservation it checked in. */
interface CheckInState {
  checkedIn?: string;
}

/** The audit subject's case: the session's (the audit hook is typed for every surface). */
function sessionCase(principal: Principal | undefined): string | null {
  return principal?.surface === "passenger" ? principal.caseUrn : null;
}
