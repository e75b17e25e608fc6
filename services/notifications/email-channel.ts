/**
 * E-mail over SMTP with nodemailer: to the embedded SMTP sink, or to the relay `SMTP_URL` names.
 */
import nodemailer from "nodemailer";
import type { NotificationChannel } from "../../src/app/notifications/notification-channel.js";

export interface EmailChannelOptions {
  /** `smtp://`, `smtps://`, with credentials if the relay wants them. */
  smtpUrl: string;
  /** The From header, e.g. `Disruption care <care@airline.example>`. */
  from: string;
}

export function emailChannel(options: EmailChannelOptions): NotificationChannel & { close(): void } {
  // Pooled: a saga's offers to a whole flight go out over a few kept-open connections rather than
  // one SMTP handshake each (`?pool=false` in SMTP_URL turns it off).
  const transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: 5 });
  return {
    name: "email",
    async send(message) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        headers: { "X-Notification-Urn": message.notificationUrn },
      });
      return { providerMessageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
