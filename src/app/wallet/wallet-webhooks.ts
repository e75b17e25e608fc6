import { inject, injectable } from "tsyringe";
import { WalletCardActor } from "../../../actors/WalletCardActor.js";
import { DomainError } from "../../domain/domain-error.js";
import { hmacSignature, verifyHmacSignature } from "../../domain/hmac-signature.js";
import { type WalletTransactionType, parseWalletCardUrn } from "../../domain/wallet/wallet-card.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { WalletIssuers } from "../../vendors/wallet-issuer-port.js";
import type { Directory } from "../directory.js";
import { WalletCardIndex } from "./wallet-card-index.js";

/** The issuer's webhook body (spec 4.5), as the route validated it. */
export interface WalletWebhookBody {
  type: WalletTransactionType;
  card_id: string;
  amount: { value: number; currency: string };
  merchant?: { name?: string } | null;
  occurred_at: string;
  /** The authorization a capture, reversal or release settles or frees. */
  authorization_id?: string | null;
}

export interface SignedWalletWebhook {
  /** The body exactly as it arrived: the signature covers these bytes. */
  rawBody: string;
  body: WalletWebhookBody;
  signature: string | undefined;
  timestamp: string | undefined;
  eventId: string;
  correlationUrn: string;
}

export interface WalletWebhookAnswer {
  cardUrn: string;
  eventId: string;
  duplicate: boolean;
}

export type WalletWebhookOutcome =
  | { outcome: "bad-signature" }
  | {
      outcome: "applied" | "duplicate";
      answer: WalletWebhookAnswer;
      /** The answer's body and the headers that sign it with the tenant's secret (spec 4.5). */
      rawAnswer: string;
      signature: string;
      timestamp: string;
    };

/** How many issuer card ids the webhook remembers the cards of. */
const CARDS_REMEMBERED = 10_000;

/**
 * Inbound wallet issuer events (spec 4.5, 6.3): the signature is checked against the secrets of
 * the tenants that use this issuer (the one that verifies is the tenant), the card is found by the
 * issuer's card id within that tenant (404 when unknown), and the event is applied in the card's
 * actor in one turn with its record: the balances move atomically and a repeated event id is
 * acknowledged and dropped there. The answer is signed the same way.
 */
@injectable()
export class WalletWebhooks {
  private tenants: Promise<readonly string[]> | undefined;
  private readonly cards = new Map<string, { cardUrn: string; tenant: string }>();

  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.walletIssuers) private readonly issuers: WalletIssuers,
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(WalletCardIndex) private readonly index: WalletCardIndex,
  ) {}

  async receive(vendor: string, webhook: SignedWalletWebhook): Promise<WalletWebhookOutcome> {
    const now = this.clock.now();
    // The first of the issuer's tenants whose secret verifies, without a list of them per event.
    let issuerKnown = false;
    let signer: { tenant: string; secret: string } | undefined;
    for (const tenant of await this.tenantsOf()) {
      const account = this.issuers.accountOf(tenant);
      if (account?.vendor !== vendor) continue;
      issuerKnown = true;
      const secret = account.webhookSecret;
      if (verifyHmacSignature(secret, webhook.signature, webhook.timestamp, webhook.rawBody, now)) {
        signer = { tenant, secret };
        break;
      }
    }
    if (!issuerKnown) {
      throw new DomainError("not-found", "wallet-issuer", `No wallet issuer "${vendor}"`);
    }
    if (!signer) return { outcome: "bad-signature" };
    const { body } = webhook;
    const entry = await this.cardOf(vendor, body.card_id);
    if (!entry || entry.tenant !== signer.tenant) {
      throw new DomainError(
        "not-found",
        "wallet-card",
        `No wallet card with the issuer's id ${body.card_id}`,
      );
    }
    const { changed } = await this.actors.invoke(
      WalletCardActor,
      parseWalletCardUrn(entry.cardUrn)!.actorId,
      "applyTransaction",
      {
        issuerCardId: body.card_id,
        transaction: {
          eventId: webhook.eventId,
          type: body.type,
          amount: body.amount.value,
          currency: body.amount.currency,
          merchant: body.merchant?.name ?? null,
          occurredAt: body.occurred_at,
          authorizationId: body.authorization_id ?? null,
          source: "webhook",
        },
        correlationUrn: webhook.correlationUrn,
      },
    );
    const answer: WalletWebhookAnswer = {
      cardUrn: entry.cardUrn,
      eventId: webhook.eventId,
      duplicate: !changed,
    };
    const rawAnswer = JSON.stringify(answer);
    const timestamp = String(Math.floor(now / 1000));
    return {
      outcome: changed ? "applied" : "duplicate",
      answer,
      rawAnswer,
      signature: hmacSignature(signer.secret, timestamp, rawAnswer),
      timestamp,
    };
  }

  /**
   * The card an issuer's card id names. The pairing never changes once made, so found pairs are
   * remembered (the most recent CARDS_REMEMBERED): a burst of one card's events reads the index once.
   */
  private async cardOf(
    vendor: string,
    issuerCardId: string,
  ): Promise<{ cardUrn: string; tenant: string } | undefined> {
    const key = `${vendor}/${issuerCardId}`;
    const known = this.cards.get(key);
    if (known) return known;
    const entry = await this.index.byIssuerCard(vendor, issuerCardId);
    if (!entry) return undefined;
    const found = { cardUrn: entry.cardUrn, tenant: entry.tenant };
    if (this.cards.size >= CARDS_REMEMBERED) this.cards.delete(this.cards.keys().next().value!);
    this.cards.set(key, found);
    return found;
  }

  /** The directory's tenants, read once: webhooks come in bursts and the airlines do not change. */
  private tenantsOf(): Promise<readonly string[]> {
    this.tenants ??= this.directory.organizations().then((all) => all.map((o) => o.airlineUrn));
    return this.tenants;
  }
}
