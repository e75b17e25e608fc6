import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PassengerNotifier } from "../../src/app/notifications/passenger-notifier.js";
import type { Platform } from "../../src/main.js";
import type { NotificationRecord } from "../../src/domain/notification.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { SmtpSink } from "../../services/notifications/smtp-sink.js";
import { MessageProviderSimulators } from "../../services/vendor-sim/message-provider.js";
import { type DaprWorkers, startDaprWorkers } from "../support/dapr-workers.js";
import type { StandinSidecar } from "../support/standin-sidecar/index.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

/**
 * Notifications on the distributed runtime: the service (RUNTIME=dapr, a stand-in sidecar) sends
 * SMS through the vendor-sim app over HTTP (VENDOR_SIM_URL), whose simulated provider calls the
 * service back over HTTP, and e-mail through its SMTP sink.
 */
let vendorSim: TestPlatform;
let workers: DaprWorkers;
let sidecar: StandinSidecar;
let platform: Platform;
let base: string;

beforeAll(async () => {
  vendorSim = await startTestPlatform({ env: { SERVICES: "vendor-sim" } });
  workers = await startDaprWorkers(
    { VENDOR_SIM_URL: vendorSim.base, DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" },
    { resiliency: false },
  );
  ({ sidecar, platform, base } = workers);
}, 60_000);

afterAll(async () => {
  await workers?.close();
  await vendorSim?.close();
});

describe("notifications on the Dapr runtime", () => {
  it("sends SMS through the vendor-sim app, applies its callback, and e-mails through the sink", async () => {
    const partner = await workers.partnerToken();
    const pushed = await fetch(`${base}/partner/v1/disruptions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${partner}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        externalEventId: "dapr-notify-1",
        airlineUrn: "urn:airline:ZX",
        flight: {
          iataDesignator: "ZX100",
          originAirport: "JFK",
          destinationAirport: "LHR",
          scheduledDeparture: "2026-11-21T22:00:00Z",
        },
        disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: "2026-11-21T20:00:00Z" },
        passengers: [
          {
            pnr: "DPR123",
            lastName: "Weber",
            cabinClass: "ECONOMY",
            loyaltyTier: "STANDARD",
            contact: { email: "weber@example.com", language: "de" },
          },
          {
            pnr: "DPR789",
            lastName: "Okafor",
            cabinClass: "ECONOMY",
            loyaltyTier: "STANDARD",
            contact: { phone: "+15550177777" },
          },
        ],
        nextFlight: { iataDesignator: "ZX102", scheduledDeparture: "2026-11-22T18:00:00Z" },
      }),
    });
    expect(pushed.status).toBe(202);
    const caseUrn = ((await pushed.json()) as { caseUrn: string }).caseUrn;
    await sidecar.idle();
    const groups = await platform.runtime.documents
      .collection<{ _id: string; groupId: string }>("sub-cases")
      .findAll({ caseUrn });
    expect(groups).toHaveLength(2);

    const notifier = platform.container.resolve<PassengerNotifier>(TOKENS.passengerNotifier);
    const send = (groupId: string) =>
      notifier.notify({
        tenant: "urn:airline:ZX",
        caseUrn,
        groupId,
        subCaseUrn: subCaseUrnFor(caseUrn, groupId),
        template: "offer",
        correlationUrn: "urn:trace:dapr-notify",
        dedupeKey: `dapr-${groupId}`,
        requestedBy: "urn:system:compensation-saga",
      });
    const receipts = await Promise.all(groups.map((g) => send(g.groupId)));
    expect(receipts.map((r) => r.channel).sort()).toEqual(["email", "sms"]);

    // The SMS went to the vendor-sim app's provider, not to one in this process.
    const sms = vendorSim.platform.container.resolve(MessageProviderSimulators).sms.sent();
    expect(sms.find((m) => m.to === "+15550177777")?.text).toContain("Dear Okafor");
    expect(platform.container.resolve(MessageProviderSimulators).sms.sent()).toHaveLength(0);

    const smsReceipt = receipts.find((r) => r.channel === "sms")!;
    const log = platform.runtime.documents.collection<NotificationRecord>("notifications");
    await expect
      .poll(async () => (await log.get(smsReceipt.notificationUrn))?.status, {
        timeout: 10_000,
        interval: 50,
      })
      .toBe("DELIVERED");

    const mail = await platform.container
      .resolve(SmtpSink)
      .waitFor((m) => m.envelope.to.includes("weber@example.com"));
    expect(mail.subject).toBe("Flug ZX100: Ihr Hotel für heute Nacht");
  });
});
