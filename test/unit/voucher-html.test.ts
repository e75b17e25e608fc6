import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { qrImageOf, voucherPage } from "../../src/app/booking/voucher-pages.js";
import { money } from "../../src/domain/money.js";
import {
  type Reservation,
  reservationIdFor,
  reservationUrn,
  voucherUrnFor,
} from "../../src/domain/reservation.js";
import { escapeHtml, renderVoucherHtml, voucherQrPayload, voucherViewOf } from "../../src/domain/voucher.js";

const id = reservationIdFor("voucher-test");
const reservation: Reservation = {
  id,
  urn: reservationUrn(id, "vendor-a", "CONFIRMED"),
  tenant: "urn:airline:ZX",
  caseUrn: "urn:case:c1",
  airport: "JFK",
  groupId: "G1",
  waveUrn: null,
  demandUrn: null,
  status: "CONFIRMED",
  vendor: "vendor-a",
  vendorReservationId: "A000001",
  confirmationNumber: "CONF<7>",
  providerOfferId: "OFFER1",
  hotel: {
    hotelUrn: "urn:hotel:H1",
    name: `Hôtel "Élan" <b>&</b>`,
    address: "1 O'Hare Way & Sons, Chicago",
    providerHotelId: "H1",
  },
  checkIn: "2026-11-21",
  checkOut: "2026-11-23",
  rooms: 2,
  guests: [
    { passengerId: "p1", name: "Ana <script>alert(1)</script> Rivera" },
    { passengerId: "p2", name: "Luis Rivera" },
  ],
  payment: "GUARANTEE",
  cost: money(24_000, "USD"),
  refundable: true,
  cancellationDeadline: null,
  source: "wave",
  attemptedHotels: [],
  voucher: {
    urn: voucherUrnFor(id),
    verificationCode: "K7PQ2MXA",
    issuedAt: "2026-11-21T12:00:00.000Z",
    version: 1,
    amendedAt: null,
  },
  bookedBy: "urn:system:booking",
  reason: null,
  replaces: null,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z",
  vendorUpdatedAt: null,
};

describe("voucher page", () => {
  it("escapes every value it prints", async () => {
    const html = await voucherPage(reservation);
    expect(html).toContain("Hôtel &quot;Élan&quot; &lt;b&gt;&amp;&lt;/b&gt;");
    expect(html).toContain("1 O&#39;Hare Way &amp; Sons, Chicago");
    expect(html).toContain("Ana &lt;script&gt;alert(1)&lt;/script&gt; Rivera");
    expect(html).toContain("CONF&lt;7&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>&</b>");
  });

  it("prints the hotel, address, dates, nights, rooms, passengers and confirmation number", async () => {
    const html = await voucherPage(reservation);
    for (const text of ["2026-11-21", "2026-11-23", "Luis Rivera", "K7PQ2MXA", reservation.voucher.urn]) {
      expect(html).toContain(text);
    }
    expect(html).toMatch(/<th scope="row">Nights<\/th><td>2<\/td>/);
    expect(html).toMatch(/<th scope="row">Rooms<\/th><td>2<\/td>/);
  });

  it("is accessible and printable: language, heading outline, a captioned table with row headers, print styles", async () => {
    const html = await voucherPage(reservation);
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain('<h2 id="stay-heading">Stay</h2>');
    expect(html).toContain("<caption>Dates, rooms and passengers</caption>");
    expect(html).toContain('<th scope="row">Check-in</th>');
    expect(html).toContain("@media print");
  });

  it("carries a QR code of the voucher URN and its verification code, with alternative text", async () => {
    const html = await voucherPage(reservation);
    const image =
      /<img src="data:image\/svg\+xml;base64,([^"]+)" width="200" height="200" alt="([^"]+)">/.exec(html);
    expect(image).not.toBeNull();
    const payload = voucherQrPayload(reservation.voucher.urn, "K7PQ2MXA");
    expect(payload).toBe(`${reservation.voucher.urn}:verification:K7PQ2MXA`);
    const drawn = await QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
    expect(Buffer.from(image![1]!, "base64").toString()).toBe(drawn);
    expect(image![2]).toBe(`QR code of voucher ${reservation.voucher.urn} with verification code K7PQ2MXA`);
  });

  it("prints a transport block only when a leg is booked", async () => {
    expect(await voucherPage(reservation)).not.toContain("Transport");
    const html = await voucherPage(reservation, [
      {
        direction: "AIRPORT_TO_HOTEL",
        pickupLocation: "Terminal 4 <door 2>",
        pickupTime: "2026-11-21T23:30:00Z",
        vehicle: null,
        dispatcherPhone: "+1 415 555 0100",
      },
    ]);
    expect(html).toContain('<h2 id="transport-heading">Transport</h2>');
    expect(html).toContain("Terminal 4 &lt;door 2&gt;");
    expect(html).toContain('href="tel:+1 415 555 0100"');
    expect(html).not.toContain("Vehicle or driver");
  });

  it("says a cancelled reservation's voucher is void", async () => {
    const html = renderVoucherHtml(
      voucherViewOf({ ...reservation, status: "CANCELLED" }),
      await qrImageOf("x"),
    );
    expect(html).toContain("This voucher is void");
  });

  it("escapes the five HTML characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});
