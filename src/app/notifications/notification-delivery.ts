import type { DeepReadonly } from "../../domain/deep-readonly.js";
import type { Logger } from "pino";
import { inject, injectable } from "tsyringe";
import type { Passenger } from "../../domain/case.js";
import { DomainError } from "../../domain/domain-error.js";
import {
  type DeliveryAttempt,
  type NotificationChannelName,
  type NotificationRecord,
} from "../../domain/notification.js";
import { type RenderedMessage, renderNotification } from "../../domain/notification-templates.js";
import { urn } from "../../domain/urn.js";
import type { Clock } from "../../runtime/clock.js";
import { type EventBus, publishEvent } from "../../runtime/event-bus.js";
import { TOKENS } from "../../runtime/tokens.js";
import { CaseChanges } from "../cases/case-changes.js";
import { ContactPreferences } from "./contact-preferences.js";
import type { MagicLinkIssuer } from "./magic-link-issuer.js";
import type { NotificationChannel, NotificationChannels } from "./notification-channel.js";
import { NotificationLog } from "./notification-log.js";
import type { NotificationSettings } from "./notification-settings.js";

/** How the group is reached: the first address of each kind among its passengers, lead first. */
export interface GroupContact {
  phone: string | null;
  email: string | null;
  language: string | null;
}

export interface ComposedNotification {
  contact: GroupContact;
  message: RenderedMessage;
  /** Set when the message carries a magic link. */
  magicLinkExpiresAt: string | null;
  /** The case is a drill (spec 4.2): the message is recorded and sent nowhere. */
  drill: boolean;
}

const MAX_REASON_LENGTH = 200;

/**
 * Writes a notification for its group and takes it down the channels in CHANNEL_ORDER (spec 1
 * step 9: SMS, messaging app, e-mail) until one provider takes it, recording every attempt in the
 * send log (a channel without an address, or that the passenger opted out of, is recorded as
 * skipped). Shared by first sends and by the fallback a bounce callback starts.
 */
@injectable()
export class NotificationDelivery {
  private readonly byName: Map<NotificationChannelName, NotificationChannel>;

  constructor(
    @inject(TOKENS.notificationChannels) channels: NotificationChannels,
    @inject(NotificationLog) private readonly log: NotificationLog,
    @inject(ContactPreferences) private readonly preferences: ContactPreferences,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(TOKENS.passengers) private readonly passengers: { magicLinks: MagicLinkIssuer },
    @inject(TOKENS.notificationSettings) private readonly settings: NotificationSettings,
    @inject(TOKENS.bus) private readonly bus: EventBus,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.logger) private readonly logger: Logger,
  ) {
    this.byName = new Map(channels.map((channel) => [channel.name, channel]));
  }

  /**
   * The group's contact and the record's template in its language. With `magicLink`, the link of
   * spec 5.2 path A; when none can be minted (the case closed), the passenger site instead.
   */
  async compose(
    record: Pick<NotificationRecord, "tenant" | "caseUrn" | "groupId" | "template" | "details">,
    magicLink: boolean,
  ): Promise<ComposedNotification> {
    const view = await this.cases.groupView(record.caseUrn, record.groupId);
    const group = view.case.tenant === record.tenant ? view.group : undefined;
    if (!group) {
      throw new DomainError(
        "not-found",
        "group-not-found",
        `No group ${record.groupId} in ${record.caseUrn}`,
      );
    }
    const contact = contactOf(group.passengers);
    let link = this.settings.passengerSiteOf(record.tenant);
    let magicLinkExpiresAt: string | null = null;
    const drill = view.case.drill === true;
    if (magicLink && !drill) {
      try {
        const minted = await this.passengers.magicLinks.issueMagicLink(record);
        link = minted.url;
        magicLinkExpiresAt = minted.expiresAt;
      } catch (error) {
        this.logger.warn({ err: error, caseUrn: record.caseUrn }, "no magic link for the notification");
      }
    }
    const message = renderNotification(record.template, contact.language, {
      name: group.passengers[0]?.lastName ?? "",
      flight: view.case.flight.number,
      origin: view.case.flight.origin,
      link,
      ...record.details,
    });
    return { contact, message, magicLinkExpiresAt, drill };
  }

  /**
   * Tries `channels` in order until a provider takes the message; each try is appended to the
   * record's attempts as it ends. The record ends SENT on the channel that took it, or FAILED.
   */
  async attempt(
    notificationUrn: string,
    channels: readonly NotificationChannelName[],
    composed: ComposedNotification,
  ): Promise<NotificationRecord> {
    let record = await this.log.update(notificationUrn, (r) => ({
      ...r,
      status: "PENDING",
      language: composed.message.language,
      carriesMagicLink: composed.magicLinkExpiresAt !== null,
      magicLinkExpiresAt: composed.magicLinkExpiresAt,
      updatedAt: this.now(),
    }));
    for (const name of channels) {
      const outcome = await this.tryChannel(record, name, composed);
      const { attempt } = outcome;
      record = await this.log.update(notificationUrn, (r) => ({
        ...r,
        attempts: [...r.attempts, attempt],
        ...(attempt.status === "SENT"
          ? { status: "SENT" as const, channel: name, recipient: attempt.recipient }
          : {}),
        updatedAt: attempt.at,
      }));
      if (attempt.status === "SENT") {
        await this.dispatched(record, name, attempt.recipient!);
        return record;
      }
    }
    return this.log.update(notificationUrn, (r) => ({
      ...r,
      status: "FAILED",
      channel: null,
      recipient: null,
      updatedAt: this.now(),
    }));
  }

  private async tryChannel(
    record: NotificationRecord,
    name: NotificationChannelName,
    composed: ComposedNotification,
  ): Promise<{ attempt: DeliveryAttempt }> {
    const recipient = name === "email" ? composed.contact.email : composed.contact.phone;
    const at = this.now();
    const attempt = (
      status: DeliveryAttempt["status"],
      reason: string | null,
      providerMessageId = null as string | null,
    ) => ({
      attempt: { channel: name, recipient, status, reason, providerMessageId, at, updatedAt: at },
    });
    const channel = this.byName.get(name);
    if (!channel) return attempt("SKIPPED", "channel-not-configured");
    if (!recipient) return attempt("SKIPPED", name === "email" ? "no-email-address" : "no-phone-number");
    if (await this.preferences.hasOptedOut(record.tenant, name, recipient))
      return attempt("SKIPPED", "opted-out");
    try {
      const { providerMessageId } = await channel.send({
        notificationUrn: record.notificationUrn,
        tenant: record.tenant,
        to: recipient,
        subject: composed.message.subject,
        text: composed.message.text,
      });
      await this.log.linkProviderMessage(name, providerMessageId, record.notificationUrn);
      return attempt("SENT", null, providerMessageId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return attempt("FAILED", reason.slice(0, MAX_REASON_LENGTH));
    }
  }

  private async dispatched(record: NotificationRecord, channel: NotificationChannelName, recipient: string) {
    try {
      await publishEvent(this.bus, {
        id: urn("event"),
        type: "notification.dispatched",
        tenant: record.tenant,
        caseUrn: record.caseUrn,
        occurredAt: this.now(),
        correlationUrn: record.correlationUrn,
        data: {
          caseUrn: record.caseUrn,
          channel,
          recipient,
          groupId: record.groupId,
          subCaseUrn: record.subCaseUrn,
          template: record.template,
          notificationUrn: record.notificationUrn,
        },
      });
    } catch (error) {
      // The message went out and the log says so; only the live view misses it.
      this.logger.warn(
        { err: error, notificationUrn: record.notificationUrn },
        "notification.dispatched not published",
      );
    }
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

/** The first phone and e-mail among the group's passengers (the lead's first), and the lead's language. */
export function contactOf(passengers: readonly DeepReadonly<Passenger>[]): GroupContact {
  const first = (pick: (p: DeepReadonly<Passenger>) => string | undefined) =>
    passengers.map((p) => pick(p)?.trim()).find((value) => value) ?? null;
  return {
    phone: first((p) => p.contact?.phone),
    email: first((p) => p.contact?.email),
    language: first((p) => p.contact?.language),
  };
}
