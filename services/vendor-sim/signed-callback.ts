/**
 * How a simulated provider calls the service back (spec 6.3): a JSON body signed with the
 * provider's callback secret (`X-Vendor-Signature` over timestamp + "." + body, the event id in
 * `X-Vendor-Event-Id`), sent again after each answer other than a 2xx, a few times, as real
 * providers do.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { CALLBACK_HEADERS, callbackSignature } from "../../src/domain/notification-callbacks.js";

/** How a callback reaches the service; resolves with the status, rejects when no answer came. */
export type CallbackPoster = (url: string, headers: Record<string, string>, body: string) => Promise<number>;

/** How long a try waits for the answer before it counts as none. */
const CALLBACK_TIMEOUT_MS = 10_000;

// Kept-alive connections, as a provider's client pool keeps them: a callback per ride or card
// would otherwise open one of its own.
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

/**
 * Posts a signed callback over HTTP, as a provider does (also the wallet issuer's webhooks), with
 * node:http rather than fetch: the simulators share the service's process, and a fetch costs
 * several times the CPU of a request.
 */
export const httpPoster: CallbackPoster = (url, headers, body) =>
  new Promise((resolve, reject) => {
    const secure = url.startsWith("https:");
    const send = secure ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: "POST",
        agent: secure ? httpsAgent : httpAgent,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        timeout: CALLBACK_TIMEOUT_MS,
      },
      (response) => {
        response.on("error", reject);
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.resume();
      },
    );
    request.on("timeout", () => request.destroy(new Error(`No answer in ${CALLBACK_TIMEOUT_MS} ms`)));
    request.on("error", reject);
    request.end(body);
  });

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
