import { FALLBACK_LANGUAGE, type PassengerLanguage } from "./languages.js";
import { nightsBetween, type Reservation } from "./reservation.js";
import { VOUCHER_TEXT } from "./voucher-text.js";

/**
 * The voucher a passenger shows at the hotel: what it says (a view of the reservation) and its
 * printable, accessible HTML. Pure: the QR image is drawn by the caller and handed in.
 */

/** A ground-transport leg printed on the voucher (spec 2.8), when one is booked. */
export interface VoucherTransport {
  direction: "AIRPORT_TO_HOTEL" | "HOTEL_TO_AIRPORT";
  pickupLocation: string;
  /** ISO timestamp. */
  pickupTime: string;
  /** Vehicle or driver identifier, when the ride provider gave one. */
  vehicle: string | null;
  dispatcherPhone: string | null;
}

/** Everything the passenger receives, and nothing more: no contact details, no cost, no payment. */
export interface VoucherView {
  voucherUrn: string;
  reservationUrn: string;
  caseUrn: string;
  groupId: string;
  /** VALID while the reservation holds its rooms, VOID once it is cancelled. */
  validity: "VALID" | "VOID";
  version: number;
  issuedAt: string;
  amendedAt: string | null;
  hotel: { name: string; address: string };
  checkIn: string;
  checkOut: string;
  nights: number;
  rooms: number;
  passengers: { passengerUrn: string; name: string }[];
  confirmationNumber: string;
  verificationCode: string;
  /** What the QR code encodes. */
  qrPayload: string;
  transport: VoucherTransport[];
}

/**
 * The QR code carries the voucher URN and its verification code as one URN, so a scanner that
 * knows URNs reads both: `urn:voucher:<id>:verification:<code>`.
 */
export function voucherQrPayload(voucherUrn: string, verificationCode: string): string {
  return `${voucherUrn}:verification:${verificationCode}`;
}

export function voucherViewOf(
  reservation: Reservation,
  transport: readonly VoucherTransport[] = [],
): VoucherView {
  const { voucher } = reservation;
  return {
    voucherUrn: voucher.urn,
    reservationUrn: reservation.urn,
    caseUrn: reservation.caseUrn,
    groupId: reservation.groupId,
    validity: reservation.status === "CANCELLED" ? "VOID" : "VALID",
    version: voucher.version,
    issuedAt: voucher.issuedAt,
    amendedAt: voucher.amendedAt,
    hotel: { name: reservation.hotel.name, address: reservation.hotel.address },
    checkIn: reservation.checkIn,
    checkOut: reservation.checkOut,
    nights: nightsBetween(reservation.checkIn, reservation.checkOut),
    rooms: reservation.rooms,
    passengers: reservation.guests.map((g) => ({
      passengerUrn: `urn:passenger:${g.passengerId}`,
      name: g.name,
    })),
    confirmationNumber: reservation.confirmationNumber,
    verificationCode: voucher.verificationCode,
    qrPayload: voucherQrPayload(voucher.urn, voucher.verificationCode),
    transport: [...transport],
  };
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Every value written into the page goes through this, text and attributes alike. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** The QR code as an image source the page can embed (a data URI), drawn by the caller. */
export interface QrImage {
  src: string;
  /** Pixels; the image is square. */
  size: number;
}

const STYLE = `
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111; margin: 0; }
  main { max-width: 42rem; margin: 0 auto; padding: 1.5rem; }
  h1 { font-size: 1.6rem; margin: 0 0 0.25rem; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid #999; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid #ccc; }
  th { width: 40%; font-weight: 600; }
  caption { text-align: left; font-weight: 600; padding-bottom: 0.35rem; }
  ul { margin: 0; padding-left: 1.1rem; }
  .void { border: 3px solid #b00020; color: #b00020; padding: 0.5rem; font-weight: 700; }
  .qr { display: flex; gap: 1rem; align-items: center; }
  .code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 1.3rem; letter-spacing: 0.15em; }
  @media print {
    @page { margin: 12mm; }
    body { color: #000; }
    main { max-width: none; padding: 0; }
    section { break-inside: avoid; }
  }`;

/**
 * A printable page that reads well on a screen reader: a language, a heading outline, a table with
 * header cells for the stay, alternative text on the QR image, and print styles. Every value is
 * HTML-escaped; the transport block appears only when a leg is booked. The page's words are in
 * `lang` (the passenger's language, `passengerLanguage` of the manifest's preference).
 */
export function renderVoucherHtml(
  view: VoucherView,
  qr: QrImage,
  lang: PassengerLanguage = FALLBACK_LANGUAGE,
): string {
  const text = VOUCHER_TEXT[lang];
  const e = escapeHtml;
  const row = (label: string, value: string) => `<tr><th scope="row">${e(label)}</th><td>${value}</td></tr>`;
  const passengers = `<ul>${view.passengers.map((p) => `<li>${e(p.name)}</li>`).join("")}</ul>`;
  const transport =
    view.transport.length === 0
      ? ""
      : `
    <section aria-labelledby="transport-heading">
      <h2 id="transport-heading">${e(text.transport)}</h2>
      ${view.transport
        .map(
          (leg) => `<table>
        <caption>${e(leg.direction === "AIRPORT_TO_HOTEL" ? text.airportToHotel : text.hotelToAirport)}</caption>
        <tbody>
          ${row(text.pickupLocation, e(leg.pickupLocation))}
          ${row(text.pickupTime, `<time datetime="${e(leg.pickupTime)}">${e(leg.pickupTime)}</time>`)}
          ${leg.vehicle ? row(text.vehicle, e(leg.vehicle)) : ""}
          ${leg.dispatcherPhone ? row(text.dispatcher, `<a href="tel:${e(leg.dispatcherPhone)}">${e(leg.dispatcherPhone)}</a>`) : ""}
        </tbody>
      </table>`,
        )
        .join("\n")}
    </section>`;
  return `<!DOCTYPE html>
<html lang="${e(lang)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${e(text.title)}: ${e(view.hotel.name)}</title>
  <style>${STYLE}
  </style>
</head>
<body>
  <main>
    <h1>${e(text.title)}</h1>
    <p>${e(text.showAtReception)}</p>
    ${view.validity === "VOID" ? `<p class="void" role="alert">${e(text.void)}</p>` : ""}
    <section aria-labelledby="hotel-heading">
      <h2 id="hotel-heading">${e(text.hotel)}</h2>
      <p><strong>${e(view.hotel.name)}</strong><br>${e(view.hotel.address)}</p>
    </section>
    <section aria-labelledby="stay-heading">
      <h2 id="stay-heading">${e(text.stay)}</h2>
      <table>
        <caption>${e(text.stayCaption)}</caption>
        <tbody>
          ${row(text.checkIn, `<time datetime="${e(view.checkIn)}">${e(view.checkIn)}</time>`)}
          ${row(text.checkOut, `<time datetime="${e(view.checkOut)}">${e(view.checkOut)}</time>`)}
          ${row(text.nights, e(view.nights))}
          ${row(text.rooms, e(view.rooms))}
          ${row(text.passengers, passengers)}
          ${row(text.confirmationNumber, `<span class="code">${e(view.confirmationNumber)}</span>`)}
        </tbody>
      </table>
    </section>${transport}
    <section aria-labelledby="verification-heading">
      <h2 id="verification-heading">${e(text.verification)}</h2>
      <div class="qr">
        <img src="${e(qr.src)}" width="${e(qr.size)}" height="${e(qr.size)}" alt="${e(text.qrAlt(view.voucherUrn, view.verificationCode))}">
        <p>${e(text.verificationCode)}<br><span class="code">${e(view.verificationCode)}</span></p>
      </div>
      <p><small>${e(text.voucherLine(view.voucherUrn, view.version))}${view.amendedAt ? `, ${e(text.amended)} ${e(view.amendedAt)}` : ""}</small></p>
    </section>
  </main>
</body>
</html>
`;
}
