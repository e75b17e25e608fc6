import { lookup } from "node:dns/promises";
import type { WebhookTransport } from "../../src/app/webhooks/webhook-transport.js";

/**
 * Webhooks over the network: `fetch` (pooled keep-alive connections), redirects never followed
 * (a 3xx is a failed delivery), the body discarded, and an abort once the timeout passes.
 */
export function httpWebhookTransport(): WebhookTransport {
  return {
    async post(url, headers, body, timeoutMs) {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return { status: response.status };
    },
    async resolve(host) {
      const addresses = await lookup(host, { all: true, verbatim: true });
      return addresses.map((entry) => entry.address);
    },
  };
}
