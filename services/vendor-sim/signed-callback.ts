/**
 * How a simulated provider calls the service back (spec 6.3): a JSON body signed with the
 * provider's callback secret (`X-Vendor-Signature` over timestamp + "." + body, the event id in
 * `X-Vendor-Event-Id`), sent again after each answer other than a 2xx, a few times, as real
 * providers do.
 */
import { CALLBACK_HEADERS, callbackSignature } from "../../src/domain/notification-callbacks.js";

/** How a callback reaches the service; resolves with the status, rejects when no answer came. */
export type CallbackPoster = (url: string, headers: Record<string, string>, body: string) => Promise<number>;

/** Posts a signed callback over HTTP, as a provider does (also the wallet issuer's webhooks). */
export const fetchPoster: CallbackPoster = async (url, headers, body) => {
  const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
};

/** Delays before each retry of a callback that got no 2xx. */
export const CALLBACK_RETRY_DELAYS_MS = [200, 1_000, 5_000, 15_000];

/** A callback's record as the provider keeps it: tries so far and the last answer's status. */
export interface CallbackAttempts {
  /** The HTTP status of the last try; null when no answer came. */
  status: number | null;
  tries: number;
}

export interface SignedCallback {
  url: string;
  eventId: string;
  body: string;
  secret: string;
}

/** Sends `callback` until a 2xx or the retries run out, recording each try in `attempts`. */
export async function deliverSignedCallback(
  callback: SignedCallback,
  attempts: CallbackAttempts,
  provider: { now: () => number; post: CallbackPoster; wait: (ms: number) => Promise<void> },
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const timestamp = String(Math.floor(provider.now() / 1000));
    const headers = {
      "content-type": "application/json",
      [CALLBACK_HEADERS.signature]: callbackSignature(callback.secret, timestamp, callback.body),
      [CALLBACK_HEADERS.timestamp]: timestamp,
      [CALLBACK_HEADERS.eventId]: callback.eventId,
    };
    attempts.tries++;
    attempts.status = await provider.post(callback.url, headers, callback.body).catch(() => null);
    const delay = CALLBACK_RETRY_DELAYS_MS[attempt];
    if ((attempts.status !== null && attempts.status < 300) || delay === undefined) return;
    await provider.wait(delay);
  }
}
