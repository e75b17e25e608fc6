import QRCode from "qrcode";
import { FALLBACK_LANGUAGE, type PassengerLanguage } from "../../domain/languages.js";
import type { Reservation } from "../../domain/reservation.js";
import {
  type QrImage,
  renderVoucherHtml,
  voucherViewOf,
  type VoucherTransport,
} from "../../domain/voucher.js";

/** Large enough for a phone camera from a printed page. */
const QR_SIZE_PX = 200;

/** The QR code as an SVG data URI: vector, so it prints sharp at any size. */
export async function qrImageOf(payload: string): Promise<QrImage> {
  const svg = await QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { src: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`, size: QR_SIZE_PX };
}

/**
 * The printable voucher page of a reservation, in `language` (the passenger's, English unless
 * given). Transport legs are printed when there are any; the transport area (a later issue) hands
 * them in.
 */
export async function voucherPage(
  reservation: Reservation,
  transport: readonly VoucherTransport[] = [],
  language: PassengerLanguage = FALLBACK_LANGUAGE,
): Promise<string> {
  const view = voucherViewOf(reservation, transport);
  return renderVoucherHtml(view, await qrImageOf(view.qrPayload), language);
}
