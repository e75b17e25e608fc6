/**
 * E-mail and SMS through output bindings (components/bindings-notifications-*.yaml) in the
 * distributed runtime: the sidecar's SMTP and Twilio SMS components send, so the app holds no
 * provider credentials. Neither component answers a message id, and neither calls back with a
 * delivery status: the notification's own URN stands as the provider's id, and the message stays
 * as sent (spec 6.3's callbacks come only from the HTTP providers).
 */
import type { NotificationChannel } from "../../src/app/notifications/notification-channel.js";
import type { OutputBinding } from "../../src/runtime/bindings.js";

/** The output binding components of components/, by channel. */
export const NOTIFICATION_BINDINGS = { email: "notifications-email", sms: "notifications-sms" } as const;

/** The SMTP binding's `create`: the text as data, the recipient and subject as metadata. */
export function emailBindingChannel(binding: OutputBinding): NotificationChannel {
  return {
    name: "email",
    async send(message) {
      await binding.invoke("create", message.text, { emailTo: message.to, subject: message.subject });
      return { providerMessageId: message.notificationUrn };
    },
  };
}

/** The Twilio SMS binding's `create`: the text as data, the number as `toNumber`. */
export function smsBindingChannel(binding: OutputBinding): NotificationChannel {
  return {
    name: "sms",
    async send(message) {
      await binding.invoke("create", message.text, { toNumber: message.to });
      return { providerMessageId: message.notificationUrn };
    },
  };
}
