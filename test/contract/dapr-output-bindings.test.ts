/**
 * Notifications through Dapr output bindings (NOTIFICATION_BINDINGS=dapr): e-mail and SMS go to
 * the sidecar's `notifications-email` (SMTP) and `notifications-sms` (Twilio SMS) components as
 * `create` operations, recorded by the stand-in sidecar's bindings API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PassengerNotifier } from "../../src/app/notifications/passenger-notifier.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { type DaprWorkers, startDaprWorkers } from "../support/dapr-workers.js";
import { push } from "../e2e/cases-fixtures.js";

let workers: DaprWorkers;

beforeAll(async () => {
  workers = await startDaprWorkers(
    { NOTIFICATION_BINDINGS: "dapr", DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" },
    { resiliency: false },
  );
}, 60_000);

afterAll(async () => {
  await workers?.close();
});

describe("notifications through Dapr output bindings", () => {
  it("sends e-mail through the SMTP binding and SMS through the SMS binding", async () => {
    const { platform, sidecar, base } = workers;
    const partner = await workers.partnerToken();
    const body = push("dapr-output-bindings-1", {
      passengers: [
        { pnr: "OUT123", lastName: "Weber", contact: { email: "weber@example.com", language: "en" } },
        { pnr: "OUT789", lastName: "Okafor", contact: { phone: "+15550177777" } },
      ],
    });
    const pushed = await fetch(`${base}/partner/v1/disruptions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${partner}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(pushed.status).toBe(202);
    const caseUrn = ((await pushed.json()) as { caseUrn: string }).caseUrn;
    await sidecar.idle();
    const groups = await platform.runtime.documents
      .collection<{ _id: string; groupId: string }>("sub-cases")
      .findAll({ caseUrn });
    expect(groups).toHaveLength(2);

    const notifier = platform.container.resolve<PassengerNotifier>(TOKENS.passengerNotifier);
    const receipts = await Promise.all(
      groups.map((g) =>
        notifier.notify({
          tenant: "urn:airline:ZX",
          caseUrn,
          groupId: g.groupId,
          subCaseUrn: subCaseUrnFor(caseUrn, g.groupId),
          template: "offer",
          correlationUrn: "urn:trace:dapr-output-bindings",
          dedupeKey: `dapr-output-${g.groupId}`,
          requestedBy: "urn:system:compensation-saga",
        }),
      ),
    );
    expect(receipts.map((r) => r.channel).sort()).toEqual(["email", "sms"]);

    const [email] = sidecar.http.outputBindings("notifications-email");
    expect(email).toMatchObject({ operation: "create", metadata: { emailTo: "weber@example.com" } });
    expect(email?.metadata.subject).toContain("ZX200");
    expect(String(email?.data)).toContain("Weber");
    const [sms] = sidecar.http.outputBindings("notifications-sms");
    expect(sms).toMatchObject({ operation: "create", metadata: { toNumber: "+15550177777" } });
    expect(String(sms?.data)).toContain("Okafor");
  });
});
