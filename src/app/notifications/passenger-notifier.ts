import type { NotificationChannelName, NotificationDetails } from "../../domain/notification.js";

/**
 * What the compensation saga and the operators' resend ask of notifications (spec 1 step 9, 4.1
 * notifications routes): tell one passenger group about its offer or voucher, on the first channel
 * that works (SMS, messaging app, e-mail), and record the send in the case's log.
 *
 * Sends are idempotent by `dedupeKey`: a saga activity that runs again (a retry, a restart between
 * the send and the record of its result) gets the first receipt back and sends nothing.
 */
export type PassengerNotificationTemplate = "offer" | "voucher" | "offer-reminder" | "transport-return";

export interface PassengerNotification {
  tenant: string;
  caseUrn: string;
  groupId: string;
  subCaseUrn: string;
  template: PassengerNotificationTemplate;
  correlationUrn: string;
  dedupeKey: string;
  /** Who asked: `urn:system:...` for the saga, the operator's URN for a resend. */
  requestedBy: string;
  /**
   * The channels to try, in order, when not the usual (CHANNEL_ORDER): the return-leg reminder is
   * an e-mail first (spec 8.2).
   */
  channels?: readonly NotificationChannelName[];
  /** What the template says beyond the case's own facts (see NotificationDetails). */
  details?: NotificationDetails;
}

export interface NotificationReceipt {
  notificationUrn: string;
  /** The channel that took the message, or null when every channel failed or none is reachable. */
  channel: "sms" | "messaging" | "email" | null;
  /** SUPPRESSED: recorded in the log and sent nowhere, since the case is a drill (spec 4.2). */
  status: "SENT" | "FAILED" | "SUPPRESSED";
  /** True when `dedupeKey` had been sent before: this is that send's receipt. */
  replayed: boolean;
}

export interface PassengerNotifier {
  notify(request: PassengerNotification): Promise<NotificationReceipt>;
}
