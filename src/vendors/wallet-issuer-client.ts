/**
 * One tenant's account at the wallet issuer, behind the `WalletIssuer` port, over either transport.
 * OAuth 2.0 client credentials (spec 5.6): the token is cached until 60 s before it expires and one
 * 401 forces one refresh (TokenCache). Failures become classified `VendorError`s (spec 7): 5xx,
 * timeouts and network errors transient; 401 after the refresh, 403 and an exhausted funding pool
 * permanent. Retries are the caller's (issuance has its own policy, WALLET_ISSUE_RETRY).
 *
 * The issuer's answer to an issue carries the card's number, verification code and expiry; they are
 * read past and dropped here, never returned, stored or logged (spec 2.7).
 */
import {
  type IssuerCardRecord,
  WALLET_CARD_STATUSES,
  WALLET_TRANSACTION_TYPES,
  type WalletCardStatus,
  type WalletTransactionType,
} from "../domain/wallet/wallet-card.js";
import type { Clock } from "../runtime/clock.js";
import { timedExchange } from "./timed-exchange.js";
import { TokenCache } from "./token-cache.js";
import { clientCredentialsTokenRequest } from "./token-request.js";
import type { ClientCredentials } from "./vendor-adapter.js";
import { MALFORMED_RESPONSE, VendorError } from "./vendor-error.js";
import type { VendorTransport } from "./vendor-transport.js";
import { type WireRequest, type WireResponse, jsonRequest, readJson } from "./wire.js";
import type { IssueCardRequest, LoadCardRequest, RevealSession, WalletIssuer } from "./wallet-issuer-port.js";

export interface WalletIssuerClientOptions {
  vendor: string;
  transport: VendorTransport;
  credentials: ClientCredentials;
  clock: Clock;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Where the issuer takes token requests; it wants the client's id and secret in a Basic header. */
export const WALLET_ISSUER_TOKEN_PATH = "/oauth/token";

export class WalletIssuerClient implements WalletIssuer {
  readonly vendor: string;
  private readonly tokens: TokenCache;

  constructor(private readonly options: WalletIssuerClientOptions) {
    this.vendor = options.vendor;
    this.tokens = new TokenCache(() => this.fetchToken(), options.clock);
  }

  async issueCard(request: IssueCardRequest): Promise<{ issuerCardId: string }> {
    const body = await this.call(
      jsonRequest("POST", "/v1/cards", {
        reference: request.reference,
        amount: { value: request.amount, currency: request.currency },
        initial_load: request.initialLoad,
      }),
    );
    // Only the id is kept: `card.number`, `card.cvc` and `card.expiry` stay in `body` and die with it.
    return { issuerCardId: text(body, "card_id") };
  }

  async loadCard(issuerCardId: string, request: LoadCardRequest): Promise<void> {
    await this.call(
      jsonRequest("POST", `/v1/cards/${encodeURIComponent(issuerCardId)}/loads`, {
        reference: request.reference,
        amount: { value: request.amount, currency: request.currency },
      }),
    );
  }

  async cancelCard(issuerCardId: string, reason: string): Promise<{ returnedToPool: number }> {
    const body = await this.call(
      jsonRequest("POST", `/v1/cards/${encodeURIComponent(issuerCardId)}/cancel`, { reason }),
    );
    return { returnedToPool: integer(body, "returned_to_pool") };
  }

  async cardRecord(issuerCardId: string): Promise<IssuerCardRecord> {
    const body = await this.call(jsonRequest("GET", `/v1/cards/${encodeURIComponent(issuerCardId)}`));
    return issuerCardRecord(body);
  }

  async revealSession(issuerCardId: string): Promise<RevealSession> {
    const body = await this.call(
      jsonRequest("POST", `/v1/cards/${encodeURIComponent(issuerCardId)}/reveal-sessions`, {}),
    );
    return { url: text(body, "url"), expiresAt: text(body, "expires_at") };
  }

  private async call(request: WireRequest): Promise<Record<string, unknown>> {
    const response = await this.tokens.authorized(
      (token) =>
        this.exchange({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }),
      (answer) => answer.status === 401,
    );
    if (response.status < 200 || response.status > 299) throw this.failure(response);
    const body = readJson(response);
    if (typeof body !== "object" || body === null) throw this.malformed("no JSON object");
    return body as Record<string, unknown>;
  }

  private async fetchToken(): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const response = await this.exchange(
      clientCredentialsTokenRequest(
        WALLET_ISSUER_TOKEN_PATH,
        this.options.credentials,
        "client_secret_basic",
      ),
    );
    if (response.status !== 200) throw this.failure(response);
    const body = readJson(response) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof body?.access_token !== "string" || typeof body.expires_in !== "number") {
      throw this.malformed("no token in the token answer");
    }
    return { accessToken: body.access_token, expiresInSeconds: body.expires_in };
  }

  private exchange(request: WireRequest): Promise<WireResponse> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return timedExchange(this.options.transport, request, this.vendor, timeoutMs, this.options.clock);
  }

  /** The issuer's code when it gives one in upper case (FUNDING_POOL_EXHAUSTED); else HTTP_<status>. */
  private failure(response: WireResponse): VendorError {
    const error = (readJson(response) as { error?: unknown } | undefined)?.error;
    const code = typeof error === "string" && /^[A-Z][A-Z0-9_]+$/.test(error) ? error : undefined;
    return new VendorError({
      vendor: this.vendor,
      ...(code ? { code } : {}),
      httpStatus: response.status,
      message: `${this.vendor} refused with HTTP ${response.status}${code ? ` ${code}` : ""}`,
    });
  }

  private malformed(what: string): VendorError {
    return new VendorError({
      vendor: this.vendor,
      code: MALFORMED_RESPONSE,
      message: `${this.vendor}: ${what}`,
    });
  }
}

function text(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== "string" || value === "") throw malformedField(key);
  return value;
}

function integer(body: Record<string, unknown>, key: string): number {
  const value = body[key];
  if (!Number.isSafeInteger(value)) throw malformedField(key);
  return value as number;
}

function malformedField(key: string): VendorError {
  return new VendorError({
    vendor: "wallet-issuer",
    code: MALFORMED_RESPONSE,
    message: `no ${key} in the answer`,
  });
}

/** The issuer's card as the reconciliation compares it. */
function issuerCardRecord(body: Record<string, unknown>): IssuerCardRecord {
  const status = body.status as WalletCardStatus;
  if (!WALLET_CARD_STATUSES.includes(status)) throw malformedField("status");
  const holds = (body.holds ?? {}) as Record<string, unknown>;
  if (typeof holds !== "object" || Object.values(holds).some((v) => !Number.isSafeInteger(v))) {
    throw malformedField("holds");
  }
  const transactions = Array.isArray(body.transactions) ? body.transactions : [];
  return {
    status,
    currentBalance: integer(body, "current_balance"),
    holds: holds as Record<string, number>,
    transactions: transactions.map((raw: Record<string, unknown>) => {
      const amount = (raw.amount ?? {}) as Record<string, unknown>;
      const type = raw.type as WalletTransactionType;
      if (!WALLET_TRANSACTION_TYPES.includes(type)) throw malformedField("transactions.type");
      const merchant = (raw.merchant ?? null) as { name?: unknown } | null;
      return {
        eventId: text(raw, "event_id"),
        type,
        amount: integer(amount, "value"),
        currency: text(amount, "currency"),
        merchant: typeof merchant?.name === "string" ? merchant.name : null,
        occurredAt: text(raw, "occurred_at"),
        authorizationId: typeof raw.authorization_id === "string" ? raw.authorization_id : null,
      };
    }),
  };
}
