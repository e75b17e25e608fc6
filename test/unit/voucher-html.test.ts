import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { qrImageOf, voucherPage } from "../../src/app/booking/voucher-pages.js";
import { reservationIdFor, voucherUrnFor } from "../../src/domain/reservation.js";
import { passengerLanguage } from "../../src/domain/languages.js";
import { escapeHtml, renderVoucherHtml, voucherQrPayload, voucherViewOf } from "../../src/domain/voucher.js";
import { confirmedReservation } from "./reservation-fixture.js";

const id = reservationIdFor("voucher-test");
const reservation = confirmedReservation(id, {
  waveUrn: null,
  confirmationNumber: "CONF<7>",
  hotel: {
    hotelUrn: "urn:hotel:H1",
    name: `Hôtel "Élan" <b>&</b>`,
    address: "1 O'Hare Way & Sons, Chicago",
    providerHotelId: "H1",
  },
  checkOut: "2026-11-23",
  guests: [
    { passengerId: "p1", name: "Ana <script>alert(1)</script> Rivera" },
    { passengerId: "p2", name: "Luis Rivera" },
  ],
  voucher: {
    urn: voucherUrnFor(id),
    verificationCode: "K7PQ2MXA",
    issuedAt: "2026-11-21T12:00:00.000Z",
    version: 1,
    amendedAt: null,
  },
});

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

  it("speaks the passenger's language: es, fr, de, pt, and English for any other", async () => {
    const qr = await qrImageOf("x");
    const view = voucherViewOf(reservation);
    const titles = {
      en: "Hotel voucher",
      es: "Bono de hotel",
      fr: "Bon d&#39;hôtel",
      de: "Hotelgutschein",
      pt: "Voucher de hotel",
    };
    for (const [language, title] of Object.entries(titles)) {
      const html = renderVoucherHtml(view, qr, passengerLanguage(language));
      expect(html).toContain(`<html lang="${language}">`);
      expect(html).toContain(`<h1>${title}</h1>`);
    }
    const german = renderVoucherHtml(view, qr, passengerLanguage("de-AT"));
    expect(german).toContain("Anreise");
    expect(german).not.toContain("Check-in");
    expect(renderVoucherHtml(view, qr, passengerLanguage("ja"))).toContain("<h1>Hotel voucher</h1>");
  });
});
