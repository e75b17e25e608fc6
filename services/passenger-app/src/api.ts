/**
 * The passenger API over HTTP, same origin: the session is the HttpOnly cookie that PNR login and
 * the magic-link exchange set (no token is kept by scripts). Every failure becomes a ProblemError.
 */
import type { Messages } from "./i18n/index.js";
import { ProblemError, problemOf, unreachable } from "./problem.js";
import type { MeProfile, Offer, Transport, Wallet, NotificationPage } from "./types.js";

interface Call {
  method?: "GET" | "POST";
  body?: unknown;
  /**
   * Reads carry `Cache-Control: private, max-age=60`; a reload after an event or a poll must see
   * the service's state, not the browser's copy, so it revalidates.
   */
  fresh?: boolean;
}

export class PassengerApi {
  /** The catalogue the app's own problems (no answer at all) are written in. */
  messages: Messages | undefined;

  async call<T>(path: string, call: Call = {}): Promise<T> {
    const method = call.method ?? "GET";
    const headers: Record<string, string> = { Accept: "application/json" };
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    // Each write the passenger makes is one action: a retry of it by the browser is not a second.
    if (method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers,
        credentials: "same-origin",
        ...(call.fresh ? { cache: "no-cache" as const } : {}),
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      });
    } catch {
      throw new ProblemError(
        unreachable(
          this.messages?.errorNetwork ?? "The service cannot be reached",
          this.messages?.errorNetworkDetail ?? "",
        ),
      );
    }
    const body = await response.json().catch(() => undefined);
    if (!response.ok) throw new ProblemError(problemOf(response.status, response.statusText, body));
    return body as T;
  }

  me = (fresh = false) => this.call<MeProfile>("/v1/me", { fresh });
  offer = (fresh = false) => this.call<Offer>("/v1/me/offer", { fresh });
  transport = (fresh = false) => this.call<Transport>("/v1/me/transport", { fresh });
  wallet = (fresh = false) => this.call<Wallet>("/v1/me/wallet", { fresh });
  notifications = (fresh = false) => this.call<NotificationPage>("/v1/me/notifications", { fresh });

  pnrLogin = (pnr: string, lastName: string, captcha: string) =>
    this.call<{ caseUrn: string }>("/v1/auth/pnr-login", {
      method: "POST",
      body: { pnr, lastName, captcha },
    });
  exchangeLink = (token: string) =>
    this.call<{ caseUrn: string }>("/v1/auth/magic-link/exchange", { method: "POST", body: { token } });
  accept = () => this.call<Offer>("/v1/me/offer/accept", { method: "POST" });
  decline = (reason: string) =>
    this.call<Offer>("/v1/me/offer/decline", { method: "POST", body: { reason } });
  checkIn = () => this.call<unknown>("/v1/me/check-in", { method: "POST" });
  requestTransport = () =>
    this.call<Transport>("/v1/me/transport/request", {
      method: "POST",
      body: { direction: "AIRPORT_TO_HOTEL" },
    });
  reveal = () => this.call<{ url: string; expiresAt: string }>("/v1/me/wallet/reveal", { fresh: true });
  reportProblem = (text: string) =>
    this.call<{ reviewItemUrn: string }>("/v1/me/problem", { method: "POST", body: { text } });
}
