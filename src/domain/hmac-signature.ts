/**
 * The signature the spec puts on every signed request, outbound webhooks (6.1) and inbound vendor
 * callbacks (4.5, 6.3) alike: `sha256=<base64 HMAC-SHA256>` over `timestamp + "." + raw body`,
 * keyed with the sender's secret, the timestamp in Unix seconds in a header of its own.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a signed request's timestamp may be from now (spec 6.1, 8.2: 5 minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export function hmacSignature(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("base64")}`;
}

/**
 * True when one of the header's signatures (comma-separated: a sender mid-rotation signs with both
 * of its secrets) is the secret's over this timestamp and body, and the timestamp is fresh.
 */
export function verifyHmacSignature(
  secret: string,
  header: string | undefined,
  timestamp: string | undefined,
  rawBody: string,
  nowMs: number,
): boolean {
  if (!header || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(hmacSignature(secret, timestamp, rawBody));
  return header.split(",").some((part) => {
    const given = Buffer.from(part.trim());
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
