import { inject, injectable } from "tsyringe";
import { CHANNEL_ORDER, type NotificationRecord, notificationUrnFor } from "../../domain/notification.js";
import type { Clock } from "../../runtime/clock.js";
import { TOKENS } from "../../runtime/tokens.js";
import { caseRefOf } from "../cases/case-changes.js";
import { NotificationDelivery } from "./notification-delivery.js";
import { NotificationLog } from "./notification-log.js";
import type { NotificationReceipt, PassengerNotification, PassengerNotifier } from "./passenger-notifier.js";

/**
 * The passenger notifier (src/app/notifications/passenger-notifier.ts): one log record per
 * `dedupeKey`, sent down the channels in order; the group's first notification that goes out
 * carries the magic link (spec 5.2 path A).
 *
 * A repeated `dedupeKey` gets the first send's receipt. Sends of one key in this process share one
 * run; a record left PENDING by a process that stopped mid-send is sent again by the next request
 * of its key (at least once: a provider that took the message just before the stop gets it twice).
 */
@injectable()
export class NotifyPassengers implements PassengerNotifier {
  private readonly running = new Map<string, Promise<{ record: NotificationRecord; replayed: boolean }>>();

  constructor(
    @inject(NotificationLog) private readonly log: NotificationLog,
    @inject(NotificationDelivery) private readonly delivery: NotificationDelivery,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async notify(asked: PassengerNotification): Promise<NotificationReceipt> {
    // The log keeps the canonical case URN, whichever form of spec 2 the caller used.
    const request = { ...asked, caseUrn: caseRefOf(asked.caseUrn).urn };
    const notificationUrn = notificationUrnFor(request.tenant, request.dedupeKey);
    const inFlight = this.running.get(notificationUrn);
    if (inFlight) return receiptOf((await inFlight).record, true);
    const run = this.run(notificationUrn, request);
    this.running.set(notificationUrn, run);
    try {
      const { record, replayed } = await run;
      return receiptOf(record, replayed);
    } finally {
      this.running.delete(notificationUrn);
    }
  }

  private async run(
    notificationUrn: string,
    request: PassengerNotification,
  ): Promise<{ record: NotificationRecord; replayed: boolean }> {
    const stored = await this.log.get(notificationUrn);
    if (stored && stored.status !== "PENDING") return { record: stored, replayed: true };
    return { record: await this.send(notificationUrn, request, stored), replayed: stored !== undefined };
  }

  private async send(
    notificationUrn: string,
    request: PassengerNotification,
    stored: NotificationRecord | undefined,
  ): Promise<NotificationRecord> {
    const firstOfGroup = !(await this.log.groupHadMagicLink(request, notificationUrn));
    // Refuses an unknown case or group before anything is logged.
    const composed = await this.delivery.compose(request, firstOfGroup);
    const now = new Date(this.clock.now()).toISOString();
    if (!stored) {
      await this.log.create({
        _id: notificationUrn,
        notificationUrn,
        tenant: request.tenant,
        caseUrn: request.caseUrn,
        groupId: request.groupId,
        subCaseUrn: request.subCaseUrn,
        template: request.template,
        language: composed.message.language,
        status: composed.drill ? "SUPPRESSED" : "PENDING",
        ...(composed.drill ? { suppressedBecause: "drill" as const } : {}),
        channel: null,
        recipient: null,
        carriesMagicLink: false,
        magicLinkExpiresAt: null,
        requestedBy: request.requestedBy,
        correlationUrn: request.correlationUrn,
        dedupeKey: request.dedupeKey,
        ...(request.details ? { details: request.details } : {}),
        attempts: [],
        replies: [],
        createdAt: now,
        updatedAt: now,
      });
    }
    if (composed.drill) {
      // A drill's case (spec 4.2): the log shows what would have gone out, and nothing does.
      return this.log.update(notificationUrn, (r) => ({
        ...r,
        status: "SUPPRESSED",
        suppressedBecause: "drill",
        updatedAt: now,
      }));
    }
    return this.delivery.attempt(notificationUrn, request.channels ?? CHANNEL_ORDER, composed);
  }
}

function receiptOf(record: NotificationRecord, replayed: boolean): NotificationReceipt {
  return {
    notificationUrn: record.notificationUrn,
    channel: record.channel,
    status:
      record.status === "SUPPRESSED"
        ? "SUPPRESSED"
        : record.status === "FAILED" || record.status === "PENDING"
          ? "FAILED"
          : "SENT",
    replayed,
  };
}
