/**
 * One way of reaching a passenger (an SMS provider, a messaging app, e-mail over SMTP): the port
 * the notifier sends through. The composition root chooses the adapters (src/main.ts).
 */
import type { NotificationChannelName } from "../../domain/notification.js";

export interface OutgoingMessage {
  notificationUrn: string;
  tenant: string;
  /** A phone number (E.164) for sms and messaging, an e-mail address for email. */
  to: string;
  subject: string;
  text: string;
}

export interface ChannelAcceptance {
  /** The provider's id of the message; delivery callbacks name it. */
  providerMessageId: string;
}

export interface NotificationChannel {
  readonly name: NotificationChannelName;
  /** Resolves once the provider took the message; rejects when it refused or did not answer. */
  send(message: OutgoingMessage): Promise<ChannelAcceptance>;
}

/** The channels a platform sends through, in no particular order (CHANNEL_ORDER decides). */
export type NotificationChannels = readonly NotificationChannel[];

/** What a channel's provider signs its delivery callbacks with (spec 6.3), by channel. */
export type CallbackSecrets = Partial<Record<NotificationChannelName, string>>;
