import { operators, supervisors } from "../../src/http/access.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import { caseUrnParams, urnOf } from "../../src/http/schemas/common.js";
import { reservationSchema } from "../../src/http/schemas/reservation.js";
import {
  bookRoomsAcceptedSchema,
  manualReservationBody,
  partnerBookingSchema,
  partnerVoucherPageSchema,
  partnerVoucherSchema,
  reservationPageSchema,
  reservationUrnParams,
} from "./booking-schemas.js";
import { auditCase, canonicalCaseUrn } from "../cases/operator-routes.js";
import type { BookingUseCases } from "./booking-use-cases.js";

const tags = ["Booking"] as const;
const partnerTags = ["Partner bookings"] as const;

/** The operator booking routes of spec 4.1 and the partner booking and voucher reads of 4.3. */
export function bookingRoutes(booking: BookingUseCases) {
  return [
    defineRoute({
      method: "POST",
      path: "/v1/cases/:caseUrn/book-rooms",
      operationId: "bookCaseRooms",
      summary: "Book the rooms of the case's latest allocation wave",
      description:
        "Composition route: validates (case exists, caller may act on it, case not closed, a wave with at least one " +
        "allocated group exists: 409 `no-wave` / `nothing-to-book` otherwise), then dispatches to booking and " +
        "answers 202 at once with where the wave's groups stand. Booking runs asynchronously: one reservation per " +
        "group, visible in GET /v1/booking/cases/{urn}/reservations; a refused offer is replaced by the next " +
        "candidate; what cannot be booked becomes a review item and the demand turns FULFILLED or PARTIAL. " +
        "Repeating the request books nothing twice.",
      tags,
      access: supervisors,
      params: caseUrnParams,
      audit: auditCase("booking.book-rooms"),
      responses: {
        202: { description: "Accepted; booking runs asynchronously", schema: bookRoomsAcceptedSchema },
      },
      handler: async ({ principal, params, correlationUrn }) => ({
        status: 202,
        body: await booking.bookRooms.request(principal, params.caseUrn, correlationUrn),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/booking/cases/:caseUrn/reservations",
      operationId: "listCaseReservations",
      summary: "Reservations of a case, oldest first",
      tags,
      access: operators,
      params: caseUrnParams,
      query: pageQuery(),
      responses: { 200: { description: "A page of reservations", schema: reservationPageSchema } },
      handler: ({ principal, params, query }) =>
        pageAnswer(query, (request) => booking.reads.caseReservations(principal, params.caseUrn, request)),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/booking/reservations/:reservationUrn",
      operationId: "getReservation",
      summary: "One reservation",
      tags,
      access: operators,
      params: reservationUrnParams,
      responses: { 200: { description: "The reservation", schema: reservationSchema } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: await booking.reads.reservation(principal, params.reservationUrn),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/booking/reservations/:reservationUrn/voucher/html",
      operationId: "getReservationVoucherHtml",
      summary: "The reservation's printable voucher",
      description:
        "Accessible HTML (language, headings, a table of the stay, alternative text on the QR image, print styles) " +
        "with the hotel, address, dates, passengers, confirmation number and a QR code of the voucher URN and its " +
        "verification code; a transport block when a leg is booked. A cancelled reservation's voucher says it is void.",
      tags,
      access: operators,
      params: reservationUrnParams,
      responses: {
        200: { description: "The voucher page", contentType: "text/html", schema: { type: "string" } },
      },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: await booking.reads.voucherHtml(principal, params.reservationUrn, booking.voucherLegs),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/booking/manual-reservations",
      operationId: "createManualReservation",
      summary: "Record a reservation booked out of band",
      description:
        "For a group an operator booked outside the vendors (by phone, at a hotel no vendor lists). The reservation " +
        "(vendor `manual`) counts as booked: it is reported to the case, gets a voucher, and may complete the demand. " +
        "409 `group-already-booked` when the group already holds a reservation. Audited with the reason.",
      tags,
      access: supervisors,
      body: manualReservationBody,
      audit: {
        action: "booking.manual-reservation",
        subject: ({ body }, response) => ({
          entityUrn: (response.body as { urn?: string } | undefined)?.urn ?? null,
          caseUrn: canonicalCaseUrn((body as { caseUrn: string }).caseUrn),
        }),
      },
      responses: { 201: { description: "The reservation", schema: reservationSchema } },
      handler: async ({ principal, body, correlationUrn, idempotencyKey }) => ({
        status: 201,
        body: await booking.manual.record(principal, body, { correlationUrn, idempotencyKey }),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/bookings/:bookingUrn",
      operationId: "partnerGetBooking",
      summary: "One booking (a reservation)",
      description: "The stay and its state; no payment, cost or contact details.",
      tags: partnerTags,
      access: { kind: "partner", scope: "bookings.read" },
      params: { type: "object", properties: { bookingUrn: reservationUrnParams.properties.reservationUrn } },
      responses: { 200: { description: "The booking", schema: partnerBookingSchema } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: await booking.reads.partnerBooking(principal, params.bookingUrn),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/vouchers/:voucherUrn",
      operationId: "partnerGetVoucher",
      summary: "One voucher, as the passenger received it",
      description: "Nothing personal beyond what the passenger received: names, no contact details.",
      tags: partnerTags,
      access: { kind: "partner", scope: "vouchers.read" },
      params: { type: "object", properties: { voucherUrn: urnOf("voucher") } },
      responses: { 200: { description: "The voucher", schema: partnerVoucherSchema } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: await booking.reads.partnerVoucher(principal, params.voucherUrn, booking.voucherLegs),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/passengers/:passengerUrn/vouchers",
      operationId: "partnerListPassengerVouchers",
      summary: "Vouchers of a passenger, oldest first",
      description: "The passenger URN is `urn:passenger:<passenger id>`, as case reads show it.",
      tags: partnerTags,
      access: { kind: "partner", scope: "vouchers.read" },
      params: { type: "object", properties: { passengerUrn: urnOf("passenger") } },
      query: pageQuery(),
      responses: { 200: { description: "A page of vouchers", schema: partnerVoucherPageSchema } },
      handler: ({ principal, params, query }) =>
        pageAnswer(query, (request) =>
          booking.reads.passengerVouchers(principal, params.passengerUrn, request, booking.voucherLegs),
        ),
    }),
  ];
}
