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

/**
 * Vouchers drawn lately, by payload. Drawing a QR code costs about a millisecond of CPU, and a
 * passenger's offer screen reads it on every poll (spec 8.2: every 30 s while the offer is open);
 * an image is some kilobytes, so a few flights' worth are kept.
 */
const DRAWN_QR_LIMIT = 1_000;
const drawnQr = new Map<string, Promise<QrImage>>();

/** The QR code as an SVG data URI: vector, so it prints sharp at any size. */
export function qrImageOf(payload: string): Promise<QrImage> {
  let image = drawnQr.get(payload);
  if (image) return image;
  image = QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 2 }).then((svg) => ({
    src: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    size: QR_SIZE_PX,
  }));
  drawnQr.set(payload, image);
  image.catch(() => drawnQr.delete(payload));
  if (drawnQr.size > DRAWN_QR_LIMIT) drawnQr.delete(drawnQr.keys().next().value!);
  return image;
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
