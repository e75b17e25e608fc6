/**
 * An SMS or messaging-app provider as a notification channel: its HTTP API (the simulators of
 * services/vendor-sim/message-provider.ts on the demo, in process or over HTTP), with the route
 * its delivery-status callbacks come back to.
 */
import type { NotificationChannel } from "../../src/app/notifications/notification-channel.js";
import type { NotificationChannelName } from "../../src/domain/notification.js";
import type { VendorTransport } from "../../src/vendors/vendor-transport.js";
import { readJson } from "../../src/vendors/wire.js";

export interface ProviderChannelOptions {
  channel: Exclude<NotificationChannelName, "email">;
  transport: VendorTransport;
  apiKey: string;
  /** Where the provider posts delivery callbacks: `{base_url}/v1/notifications/callbacks/<channel>`. */
  callbackUrl: string;
  timeoutMs?: number;
}

export function providerChannel(options: ProviderChannelOptions): NotificationChannel {
  return {
    name: options.channel,
    async send(message) {
      const response = await options.transport.send(
        {
          method: "POST",
          path: "/v1/messages",
          headers: {
            accept: "application/json",
            "content-type": "application/json",
            authorization: `Bearer ${options.apiKey}`,
          },
          body: JSON.stringify({
            to: message.to,
            text: message.text,
            reference: message.notificationUrn,
            statusCallback: options.callbackUrl,
          }),
        },
        AbortSignal.timeout(options.timeoutMs ?? 10_000),
      );
      const answer = readJson(response) as { messageId?: unknown; error?: unknown } | undefined;
      if (response.status !== 202 || typeof answer?.messageId !== "string") {
        throw new Error(
          `the ${options.channel} provider answered ${response.status}${answer?.error ? `: ${String(answer.error)}` : ""}`,
        );
      }
      return { providerMessageId: answer.messageId };
    },
  };
}
