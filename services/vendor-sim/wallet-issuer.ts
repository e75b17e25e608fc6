/**
 * A simulated wallet issuer (spec 2.7, 5.6, 6.3), in process on the embedded default and under
 * `/wallet-sim` in the vendor-sim app:
 *
 *   POST /oauth/token                      client credentials in a Basic header → {access_token, expires_in}
 *   POST /v1/cards                         {reference, amount: {value, currency}, initial_load}
 *                                          → 201 {card_id, status, card: {number, cvc, expiry}}
 *                                          (the same reference again → 200, the same card)
 *   POST /v1/cards/<id>/loads              {reference, amount} → 200 {card_id, current_balance}
 *   POST /v1/cards/<id>/cancel             {reason} → 200 {card_id, status, returned_to_pool}
 *   GET  /v1/cards/<id>                    status, balances, holds and transactions
 *   POST /v1/cards/<id>/reveal-sessions    → 201 {url, expires_at}: the hosted page, 5 minutes
 *   GET  /reveal/<session>                 the hosted page showing the card number (no token)
 *
 * Each tenant's account (one API client) draws its cards from a funding pool: an issue takes the
 * card's whole amount out of it (402 FUNDING_POOL_EXHAUSTED when it cannot), a cancellation puts
 * back what was not spent. A hold not settled within 7 days (spec 8.2) is released with HOLD_RELEASED.
 * Faults: `failNext("server-error" | "unauthorized" | "forbidden")`.
 * Card activity (`authorize`, `capture`, `reverse`, `releaseHold`) is sent to the account's
 * webhook URL, signed with its webhook secret as spec 4.5 says; `deliver: false` keeps an event
 * from being sent (what the daily reconciliation then backfills).
 */
import { randomBytes } from "node:crypto";
import {
  DEMO_WALLET_FUNDING_POOL,
  DEMO_WALLET_VENDOR,
  demoWalletAccounts,
} from "../../src/demo/demo-wallet-accounts.js";
import { hmacSignature } from "../../src/domain/hmac-signature.js";
import { CALLBACK_HEADERS } from "../../src/domain/notification-callbacks.js";
import type { WalletCardStatus, WalletTransactionType } from "../../src/domain/wallet/wallet-card.js";
import type { Clock } from "../../src/runtime/clock.js";
import type { ClientCredentials } from "../../src/vendors/vendor-adapter.js";
import { FUNDING_POOL_EXHAUSTED } from "../../src/vendors/wallet-issuer-port.js";
import { WALLET_ISSUER_TOKEN_PATH } from "../../src/vendors/wallet-issuer-client.js";
import {
  type WireEndpoint,
  type WireRequest,
  type WireResponse,
  jsonResponse,
} from "../../src/vendors/wire.js";
import { presentedCredentials } from "./client-authentication.js";
import { type CallbackPoster, httpPoster } from "./signed-callback.js";
import { TokenIssuer } from "./token-issuer.js";

export const WALLET_SIM_ID = DEMO_WALLET_VENDOR;

export interface WalletIssuerAccountSettings extends ClientCredentials {
  /** Minor units the account may still put on cards. */
  fundingPool: number;
  webhookSecret: string;
  /** Where the account's card activity is posted; none: kept, not sent. */
  webhookUrl?: string;
}

export type WalletFault = "server-error" | "unauthorized" | "forbidden";

export interface SimulatedCardEvent {
  event_id: string;
  type: WalletTransactionType;
  card_id: string;
  amount: { value: number; currency: string };
  merchant: { name: string } | null;
  occurred_at: string;
  authorization_id: string | null;
}

interface SimulatedCard {
  cardId: string;
  clientId: string;
  reference: string;
  number: string;
  cvc: string;
  expiry: string;
  currency: string;
  initial: number;
  loaded: number;
  loads: Set<string>;
  captured: number;
  holds: Map<string, number>;
  status: WalletCardStatus;
  returnedToPool: number | null;
  events: SimulatedCardEvent[];
}

const REVEAL_LIFETIME_MS = 5 * 60_000;
/** Spec 8.2: a wallet vendor's hold expires after typically 7 days. */
const HOLD_EXPIRY_MS = 7 * 24 * 60 * 60_000;

export class WalletIssuerSimulator implements WireEndpoint {
  readonly id = WALLET_SIM_ID;
  readonly tokens: TokenIssuer;
  private readonly accounts = new Map<string, WalletIssuerAccountSettings>();
  private readonly cards = new Map<string, SimulatedCard>();
  private readonly byReference = new Map<string, string>();
  private readonly reveals = new Map<string, { cardId: string; expiresAt: number }>();
  private faults: WalletFault[] = [];
  private sequence = 0;

  constructor(
    accounts: readonly WalletIssuerAccountSettings[],
    private readonly clock: Clock,
    private readonly options: {
      /** Where the hosted reveal page is reached from a browser (`<url>/reveal/<session>`). */
      publicUrl: string;
      post?: CallbackPoster;
      /** How long a hold lives unsettled before the issuer releases it (spec 8.2: typically 7 days). */
      holdExpiryMs?: number;
    },
  ) {
    for (const account of accounts) this.accounts.set(account.clientId, { ...account });
    this.tokens = new TokenIssuer(accounts, clock, `${WALLET_SIM_ID}:tokens`);
  }

  async handle(request: WireRequest): Promise<WireResponse> {
    const path = request.path.split("?")[0]!;
    if (request.method === "POST" && path === WALLET_ISSUER_TOKEN_PATH) return this.token(request);
    const reveal = /^\/reveal\/([0-9a-f]+)$/.exec(path);
    if (request.method === "GET" && reveal) return this.revealPage(reveal[1]!);
    const check = this.tokens.check(request.headers.authorization);
    if (!check.valid) return jsonResponse(401, { error: check.reason });
    const fault = this.faults.shift();
    if (fault === "server-error") return jsonResponse(503, { error: "temporarily unavailable" });
    if (fault === "unauthorized") return jsonResponse(401, { error: "invalid_token" });
    if (fault === "forbidden") return jsonResponse(403, { error: "account suspended" });
    const account = this.accounts.get(check.clientId)!;
    const body = parseJson(request.body);
    if (request.method === "POST" && path === "/v1/cards") return this.issue(account, body);
    const card = /^\/v1\/cards\/([^/]+)(\/[a-z-]+)?$/.exec(path);
    const found = card ? this.cards.get(decodeURIComponent(card[1]!)) : undefined;
    if (!found || found.clientId !== account.clientId) return jsonResponse(404, { error: "unknown card" });
    const action = card?.[2];
    if (request.method === "GET" && !action) return jsonResponse(200, this.record(found));
    if (request.method !== "POST") return jsonResponse(405, { error: "method not allowed" });
    if (action === "/loads") return this.load(found, body);
    if (action === "/cancel") return this.cancel(account, found);
    if (action === "/reveal-sessions") return this.openReveal(found);
    return jsonResponse(404, { error: "not found" });
  }

  /** The next `times` authenticated calls fail with `fault`. */
  failNext(fault: WalletFault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push(fault);
  }

  setFundingPool(clientId: string, amount: number): void {
    const account = this.accounts.get(clientId);
    if (account) account.fundingPool = amount;
  }

  fundingPool(clientId: string): number | undefined {
    return this.accounts.get(clientId)?.fundingPool;
  }

  setWebhookUrl(clientId: string, url: string): void {
    const account = this.accounts.get(clientId);
    if (account) account.webhookUrl = url;
  }

  revokeTokens(): void {
    this.tokens.revokeAll();
  }

  /** The card the issuer holds under `cardId`, number included (for tests of what the service keeps). */
  card(cardId: string): Readonly<SimulatedCard> | undefined {
    return this.cards.get(cardId);
  }

  /** Every card issued, oldest first: the issuer's ledger of issues and loads. */
  issuedCards(): Readonly<SimulatedCard>[] {
    return [...this.cards.values()];
  }

  /** A merchant asks to hold `amount` on the card; resolves with the authorization's id. */
  async authorize(
    cardId: string,
    amount: number,
    merchant: string,
    options: { deliver?: boolean } = {},
  ): Promise<string> {
    const card = this.mustFind(cardId);
    const authorizationId = this.nextId("auth");
    card.holds.set(authorizationId, amount);
    await this.recordEvent(card, "AUTHORIZATION", amount, merchant, authorizationId, options);
    // An unsettled hold expires on the issuer's side, which says so with HOLD_RELEASED.
    this.clock.setTimer(() => {
      if (card.holds.has(authorizationId)) void this.releaseHold(cardId, authorizationId);
    }, this.options.holdExpiryMs ?? HOLD_EXPIRY_MS);
    return authorizationId;
  }

  /** The merchant settles the hold (for `amount`, the held amount by default). */
  async capture(
    cardId: string,
    authorizationId: string,
    options: { amount?: number; deliver?: boolean } = {},
  ) {
    const card = this.mustFind(cardId);
    const held = card.holds.get(authorizationId) ?? 0;
    const amount = options.amount ?? held;
    card.holds.delete(authorizationId);
    card.captured += amount;
    await this.recordEvent(card, "CAPTURE", amount, null, authorizationId, options);
  }

  /** The merchant reverses the authorization: the hold goes. */
  async reverse(cardId: string, authorizationId: string, options: { deliver?: boolean } = {}) {
    await this.release(cardId, authorizationId, "REVERSAL", options);
  }

  /** The hold expired (typically after 7 days, spec 8.2). */
  async releaseHold(cardId: string, authorizationId: string, options: { deliver?: boolean } = {}) {
    await this.release(cardId, authorizationId, "HOLD_RELEASED", options);
  }

  /** Sets what the issuer holds as the card's settled balance, as a drift on its side would. */
  driftBalance(cardId: string, capturedDelta: number): void {
    this.mustFind(cardId).captured += capturedDelta;
  }

  /** Cancels the card on the issuer's side only (the service learns it from reconciliation). */
  cancelQuietly(cardId: string): void {
    this.mustFind(cardId).status = "CANCELLED";
  }

  private async release(
    cardId: string,
    authorizationId: string,
    type: "REVERSAL" | "HOLD_RELEASED",
    options: { deliver?: boolean },
  ) {
    const card = this.mustFind(cardId);
    const held = card.holds.get(authorizationId) ?? 0;
    card.holds.delete(authorizationId);
    await this.recordEvent(card, type, held, null, authorizationId, options);
  }

  private async recordEvent(
    card: SimulatedCard,
    type: WalletTransactionType,
    amount: number,
    merchant: string | null,
    authorizationId: string,
    options: { deliver?: boolean },
  ): Promise<void> {
    const event: SimulatedCardEvent = {
      event_id: this.nextId("evt"),
      type,
      card_id: card.cardId,
      amount: { value: amount, currency: card.currency },
      merchant: merchant === null ? null : { name: merchant },
      occurred_at: new Date(this.clock.now()).toISOString(),
      authorization_id: authorizationId,
    };
    card.events.push(event);
    const account = this.accounts.get(card.clientId)!;
    if (options.deliver === false || !account.webhookUrl) return;
    const { event_id, ...body } = event;
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(this.clock.now() / 1000));
    await (this.options.post ?? httpPoster)(
      account.webhookUrl,
      {
        "content-type": "application/json",
        [CALLBACK_HEADERS.signature]: hmacSignature(account.webhookSecret, timestamp, raw),
        [CALLBACK_HEADERS.timestamp]: timestamp,
        [CALLBACK_HEADERS.eventId]: event_id,
      },
      raw,
    );
  }

  private token(request: WireRequest): WireResponse {
    const credentials = presentedCredentials(request, "client_secret_basic");
    const issued = credentials && this.tokens.issue(credentials.clientId, credentials.clientSecret);
    if (!issued) return jsonResponse(401, { error: "invalid_client" });
    return jsonResponse(200, {
      access_token: issued.accessToken,
      token_type: "Bearer",
      expires_in: issued.expiresInSeconds,
    });
  }

  private issue(account: WalletIssuerAccountSettings, body: Record<string, unknown>): WireResponse {
    const reference = body.reference;
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined;
    const initialLoad = body.initial_load;
    if (
      typeof reference !== "string" ||
      !Number.isSafeInteger(amount?.value) ||
      (amount!.value as number) <= 0 ||
      typeof amount?.currency !== "string" ||
      !Number.isSafeInteger(initialLoad)
    ) {
      return jsonResponse(400, { error: "reference, amount and initial_load are required" });
    }
    const key = `${account.clientId}\u0000${reference}`;
    const existing = this.byReference.get(key);
    if (existing) return jsonResponse(200, this.issued(this.cards.get(existing)!));
    const value = amount.value as number;
    if (value > account.fundingPool) return jsonResponse(402, { error: FUNDING_POOL_EXHAUSTED });
    account.fundingPool -= value;
    const card: SimulatedCard = {
      cardId: this.nextId("card"),
      clientId: account.clientId,
      reference,
      number: `4${Array.from({ length: 15 }, () => randomBytes(1)[0]! % 10).join("")}`,
      cvc: String(100 + (randomBytes(2).readUInt16BE(0) % 900)),
      expiry: "12/29",
      currency: amount.currency,
      initial: value,
      loaded: initialLoad as number,
      loads: new Set(),
      captured: 0,
      holds: new Map(),
      status: "LOADED",
      returnedToPool: null,
      events: [],
    };
    this.cards.set(card.cardId, card);
    this.byReference.set(key, card.cardId);
    return jsonResponse(201, this.issued(card));
  }

  private issued(card: SimulatedCard) {
    return {
      card_id: card.cardId,
      status: card.status,
      card: { number: card.number, cvc: card.cvc, expiry: card.expiry },
    };
  }

  private load(card: SimulatedCard, body: Record<string, unknown>): WireResponse {
    const amount = body.amount as { value?: unknown } | undefined;
    if (typeof body.reference !== "string" || !Number.isSafeInteger(amount?.value)) {
      return jsonResponse(400, { error: "reference and amount are required" });
    }
    if (card.status === "CANCELLED") return jsonResponse(409, { error: "CARD_CANCELLED" });
    if (!card.loads.has(body.reference)) {
      card.loads.add(body.reference);
      card.loaded += amount!.value as number;
    }
    return jsonResponse(200, { card_id: card.cardId, current_balance: card.loaded - card.captured });
  }

  private cancel(account: WalletIssuerAccountSettings, card: SimulatedCard): WireResponse {
    if (card.returnedToPool === null) {
      card.status = "CANCELLED";
      card.returnedToPool = card.initial - card.captured;
      card.holds.clear();
      account.fundingPool += card.returnedToPool;
    }
    return jsonResponse(200, {
      card_id: card.cardId,
      status: card.status,
      returned_to_pool: card.returnedToPool,
    });
  }

  private record(card: SimulatedCard) {
    return {
      card_id: card.cardId,
      status: card.status,
      currency: card.currency,
      current_balance: card.status === "CANCELLED" ? 0 : card.loaded - card.captured,
      holds: Object.fromEntries(card.holds),
      transactions: card.events,
    };
  }

  private openReveal(card: SimulatedCard): WireResponse {
    const session = randomBytes(16).toString("hex");
    const expiresAt = this.clock.now() + REVEAL_LIFETIME_MS;
    this.reveals.set(session, { cardId: card.cardId, expiresAt });
    return jsonResponse(201, {
      url: `${this.options.publicUrl}/reveal/${session}`,
      expires_at: new Date(expiresAt).toISOString(),
    });
  }

  private revealPage(session: string): WireResponse {
    const reveal = this.reveals.get(session);
    const card = reveal && reveal.expiresAt > this.clock.now() ? this.cards.get(reveal.cardId) : undefined;
    if (!card) return { status: 404, headers: { "content-type": "text/plain" }, body: "expired or unknown" };
    const html =
      `<!doctype html><html><head><meta charset="utf-8"><title>Your meal card</title></head><body>` +
      `<p>Card number <b>${card.number}</b></p><p>Expiry ${card.expiry} · CVC ${card.cvc}</p></body></html>`;
    return {
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
      body: html,
    };
  }

  private mustFind(cardId: string): SimulatedCard {
    const card = this.cards.get(cardId);
    if (!card) throw new Error(`no simulated card ${cardId}`);
    return card;
  }

  private nextId(kind: string): string {
    this.sequence++;
    return `${kind}_${this.sequence.toString(36)}${randomBytes(4).toString("hex")}`;
  }
}

function parseJson(body: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body || "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The simulated issuer with the demo airlines' accounts (src/demo/demo-wallet-accounts.ts), each
 * with the demo funding pool and its webhooks sent to `webhookUrl`.
 */
export function demoWalletIssuer(
  clock: Clock,
  options: { publicUrl: string; webhookUrl: string; post?: CallbackPoster },
): WalletIssuerSimulator {
  const accounts = [...demoWalletAccounts().values()].map((account) => ({
    ...account.credentials,
    fundingPool: DEMO_WALLET_FUNDING_POOL,
    webhookSecret: account.webhookSecret,
    webhookUrl: options.webhookUrl,
  }));
  return new WalletIssuerSimulator(accounts, clock, {
    publicUrl: options.publicUrl,
    ...(options.post ? { post: options.post } : {}),
  });
}
