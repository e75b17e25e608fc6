import type { Logger } from "pino";
import { inject, injectable } from "tsyringe";
import type { Alert } from "../../domain/alert.js";
import { hmacSignature } from "../../domain/hmac-signature.js";
import { isDelivered, WEBHOOK_TIMEOUT_MS } from "../../domain/webhooks/retry-schedule.js";
import { WEBHOOK_HEADERS, WEBHOOK_USER_AGENT } from "../../domain/webhooks/webhook-payload.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { AuditLog } from "../audit-log.js";
import type { AlertContact, Directory } from "../directory.js";
import type { NotificationChannels } from "../notifications/notification-channel.js";
import { WebhookSender } from "../webhooks/webhook-sender.js";
import type { WebhookTransport } from "../webhooks/webhook-transport.js";

/** Who raises alerts in the audit trail. */
export const ALERTING_SYSTEM = "urn:system:alerting";

/** One way an alert reaches one recipient. */
interface AlertTarget {
  channel: "webhook" | "email";
  address: string;
  secret?: string;
}

/** An alert sent to one target; its id is what makes a redelivered event send nothing again. */
interface SentAlertDoc {
  _id: string;
  tenant: string;
  alertUrn: string;
  channel: AlertTarget["channel"];
  address: string;
  sentAt: string;
}

/**
 * Sends an alert to its recipients' channels: a signed webhook POST (signed as the partner webhooks
 * are, spec 6.1, with the recipient's own secret) and e-mail through the notification e-mail
 * channel. Each (alert, channel, address) is sent once, however often the raising event comes, and
 * each alert is audited once with where it went. A channel that fails is retried with the event,
 * after the others were tried.
 */
@injectable()
export class RaiseAlert {
  private readonly sent: DocumentCollection<SentAlertDoc>;

  constructor(
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(TOKENS.notificationChannels) private readonly channels: NotificationChannels,
    @inject(TOKENS.webhookTransport) private readonly transport: WebhookTransport,
    @inject(WebhookSender) private readonly webhooks: WebhookSender,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.logger) private readonly logger: Logger,
    @inject(TOKENS.documents) documents: DocumentStore,
  ) {
    this.sent = documents.collection<SentAlertDoc>("alerts-sent");
  }

  async raise(alert: Alert): Promise<void> {
    const targets = (await this.contactsOf(alert)).flatMap(targetsOf);
    if (targets.length === 0) {
      this.logger.warn(
        { tenant: alert.tenant, alertUrn: alert.urn, kind: alert.kind, recipient: alert.recipient },
        "alert has no configured channel to go to",
      );
    }
    const failures: unknown[] = [];
    for (const target of targets) {
      const id = `${alert.urn}~${target.channel}~${target.address}`;
      if (await this.sent.get(id)) continue;
      try {
        await this.send(alert, target);
      } catch (error) {
        failures.push(error);
        continue;
      }
      await this.sent.put({
        _id: id,
        tenant: alert.tenant,
        alertUrn: alert.urn,
        channel: target.channel,
        address: target.address,
        sentAt: new Date(this.clock.now()).toISOString(),
      });
    }
    if (failures.length > 0) throw failures[0];
    await this.auditOnce(alert, targets);
  }

  private async contactsOf(alert: Alert): Promise<AlertContact[]> {
    const { recipient, tenant } = alert;
    if (recipient.kind === "on-call") {
      const alerting = (await this.directory.findOrganization(tenant))?.alerting;
      return alerting ? [alerting] : [];
    }
    const registrations =
      recipient.kind === "partner"
        ? [await this.directory.findPartnerRegistration(recipient.clientId)]
        : await this.directory.partnerRegistrations();
    return registrations.flatMap((r) => (r?.airlineUrn === tenant && r.contact ? [r.contact] : []));
  }

  private async send(alert: Alert, target: AlertTarget): Promise<void> {
    if (target.channel === "email") {
      const email = this.channels.find((c) => c.name === "email");
      if (!email) throw new Error("no e-mail channel in this process");
      await email.send({
        notificationUrn: alert.urn,
        tenant: alert.tenant,
        to: target.address,
        subject: alert.subject,
        text: alert.text,
      });
      return;
    }
    const now = this.clock.now();
    const body = JSON.stringify({
      type: "alert.raised",
      alert_urn: alert.urn,
      kind: alert.kind,
      occurred_at: alert.raisedAt,
      tenant: alert.tenant,
      ...(alert.caseUrn ? { case_urn: alert.caseUrn } : {}),
      correlation_urn: alert.correlationUrn,
      subject: alert.subject,
      text: alert.text,
      data: alert.data,
    });
    const timestamp = String(Math.floor(now / 1000));
    const url = await this.webhooks.allowedUrl(target.address);
    const { status } = await this.transport.post(
      url.href,
      {
        "Content-Type": "application/json",
        [WEBHOOK_HEADERS.userAgent]: WEBHOOK_USER_AGENT,
        [WEBHOOK_HEADERS.signature]: hmacSignature(target.secret ?? "", timestamp, body),
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.eventType]: "alert.raised",
        [WEBHOOK_HEADERS.eventUrn]: alert.urn,
        [WEBHOOK_HEADERS.tenant]: alert.tenant,
        [WEBHOOK_HEADERS.correlation]: alert.correlationUrn,
      },
      body,
      WEBHOOK_TIMEOUT_MS,
    );
    if (!isDelivered(status)) throw new Error(`alert webhook ${target.address} answered HTTP ${status}`);
  }

  private async auditOnce(alert: Alert, targets: AlertTarget[]): Promise<void> {
    const filter = { tenant: alert.tenant, action: "alert.raised", "after.alertUrn": alert.urn };
    if (await this.audit.has(filter)) return;
    await this.audit.append({
      tenant: alert.tenant,
      actorUrn: ALERTING_SYSTEM,
      action: "alert.raised",
      entityUrn: alert.entityUrn,
      caseUrn: alert.caseUrn,
      correlationUrn: alert.correlationUrn,
      reason: alert.subject,
      after: {
        alertUrn: alert.urn,
        kind: alert.kind,
        recipient: alert.recipient.kind,
        sentTo: targets.map((t) => `${t.channel}:${t.address}`),
      },
    });
  }
}

/** A webhook without its secret is not sent: an unsigned page could be forged by anyone. */
function targetsOf(contact: AlertContact): AlertTarget[] {
  return [
    ...(contact.webhookUrl && contact.webhookSecret
      ? [{ channel: "webhook" as const, address: contact.webhookUrl, secret: contact.webhookSecret }]
      : []),
    ...(contact.email ? [{ channel: "email" as const, address: contact.email }] : []),
  ];
}
