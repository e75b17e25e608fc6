import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { callbackSignature, verifyCallbackSignature } from "../../src/domain/notification-callbacks.js";

const body = '{"eventId":"e1","messageId":"m1","type":"delivered","occurredAt":"2026-11-27T12:00:00Z"}';
const now = Date.parse("2026-11-27T12:00:00Z");
const timestamp = String(now / 1000);

describe("delivery callback signatures", () => {
  it("are sha256= and the base64 HMAC-SHA256 of timestamp.body under the provider's secret", () => {
    const expected = createHmac("sha256", "secret").update(`${timestamp}.${body}`).digest("base64");
    expect(callbackSignature("secret", timestamp, body)).toBe(`sha256=${expected}`);
  });

  it("verify only with the same secret, timestamp and bytes", () => {
    const signature = callbackSignature("secret", timestamp, body);
    expect(verifyCallbackSignature("secret", signature, timestamp, body, now)).toBe(true);
    expect(verifyCallbackSignature("other", signature, timestamp, body, now)).toBe(false);
    expect(verifyCallbackSignature("secret", signature, String(now / 1000 + 1), body, now)).toBe(false);
    expect(
      verifyCallbackSignature("secret", signature, timestamp, body.replace("delivered", "bounced"), now),
    ).toBe(false);
    expect(verifyCallbackSignature("secret", undefined, timestamp, body, now)).toBe(false);
    expect(verifyCallbackSignature("secret", signature, undefined, body, now)).toBe(false);
    expect(verifyCallbackSignature("secret", "sha256=short", timestamp, body, now)).toBe(false);
  });

  it("refuse a timestamp more than 5 minutes from now, either way", () => {
    for (const skewSeconds of [-301, 301]) {
      const stale = String(now / 1000 + skewSeconds);
      const signature = callbackSignature("secret", stale, body);
      expect(verifyCallbackSignature("secret", signature, stale, body, now)).toBe(false);
    }
    const fresh = String(now / 1000 - 299);
    expect(
      verifyCallbackSignature("secret", callbackSignature("secret", fresh, body), fresh, body, now),
    ).toBe(true);
    expect(
      verifyCallbackSignature("secret", callbackSignature("secret", "abc", body), "abc", body, now),
    ).toBe(false);
  });
});
