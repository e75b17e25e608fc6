import type { Clock } from "../runtime/clock.js";
import { systemClock } from "../runtime/clock.js";
import type { Directory } from "../app/directory.js";
import { StaticDirectory } from "../identity/static-directory.js";
import { DEMO_AIRLINES } from "./demo-airlines.js";
import { demoPartnerRegistrations } from "./demo-partners.js";
import { DEMO_USERS } from "./demo-users.js";

/**
 * The seeded directory of the embedded default: two demo airlines, their users and partners.
 * `alertWebhookUrl` (DEMO_ALERT_WEBHOOK_URL) adds a webhook to the airlines' on-call channel.
 */
export function createDemoDirectory(
  clock: Clock = systemClock,
  options: { alertWebhookUrl?: string | undefined } = {},
): Directory {
  const { alertWebhookUrl } = options;
  return new StaticDirectory({
    organizations: alertWebhookUrl
      ? DEMO_AIRLINES.map((o) => ({ ...o, alerting: { ...o.alerting, webhookUrl: alertWebhookUrl } }))
      : DEMO_AIRLINES,
    users: DEMO_USERS,
    partners: demoPartnerRegistrations(clock.now()),
  });
}
