import { stayDate } from "../support/overnight-flights.js";
import { completeWave, guaranteedHotels, oneRoomAllocation } from "../support/completed-wave.js";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReservationUrn } from "../../src/domain/reservation.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { AnswerOffer } from "../../src/app/sub-cases/answer-offer.js";
import { simulatorsOf } from "../support/container.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { deleteKeysStartingWith, REDIS_URL, redisForTests } from "../support/redis.js";

/**
 * Restart safety of the sub-case saga on the real Redis (STATE_STORE=redis): the service is stopped
 * while a declined offer's rollback waits to retry its cancellation, and a new service over the same
 * Redis resumes the run from its history. The vendors live in a vendor-sim process of their own that
 * outlives both, so its ledger witnesses every booking and cancellation: one of each.
 */
const ZX = "urn:airline:ZX";
// A week ahead: the rooms' free cancellation (18:00 UTC on check-in day) is still open whenever this runs.
const CHECK_IN = stayDate(7);
const CHECK_OUT = stayDate(8);
const enc = encodeURIComponent;

const redis = await redisForTests("Sub-case saga restart over Redis");

describe.skipIf(!redis.reachable)("the sub-case saga across a restart, on Redis", () => {
  let vendorSim: TestPlatform;
  let t: TestPlatform | undefined;
  // Documents too are in Redis, under a prefix of this run's, which both services load in turn.
  const documentPrefix = `test:saga-restart-documents:${randomUUID()}:`;
  const env = () => ({
    STATE_STORE: "redis",
    REDIS_URL,
    REDIS_DOCUMENT_PREFIX: documentPrefix,
    VENDOR_SIM_URL: vendorSim.base,
  });

  beforeAll(async () => {
    vendorSim = await startTestPlatform({ env: { SERVICES: "vendor-sim" } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await vendorSim?.close();
    await deleteKeysStartingWith(documentPrefix);
  });

  async function json(response: Response, status: number): Promise<any> {
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return text ? JSON.parse(text) : undefined;
  }

  async function subCaseOf(platform: TestPlatform, token: string, caseUrn: string, groupId: string) {
    return json(
      await platform.call("GET", `/v1/subcases/${enc(subCaseUrnFor(caseUrn, groupId))}`, token),
      200,
    );
  }

  it("resumes a rollback from its history after the process stopped: one booking and one cancellation at the vendor", async () => {
    t = await startTestPlatform({ env: env() });
    let supervisor = await t.operatorToken("supervisor@zx.demo");
    let operator = await t.operatorToken("operator@zx.demo");
    const externalEventId = `saga-restart-${randomUUID()}`;
    const opened = await json(
      await t.call("POST", "/v1/cases", supervisor, {
        externalEventId,
        flight: {
          number: "ZX410",
          origin: "SFO",
          destination: "LHR",
          scheduledDeparture: `${CHECK_IN}T22:00:00Z`,
        },
        nextFlight: { number: "ZX412", scheduledDeparture: `${CHECK_OUT}T18:00:00Z` },
        passengerGroups: [
          {
            id: "GR1",
            pnr: "RST001",
            passengers: [
              { id: `${externalEventId}-p1`, firstName: "Ana", lastName: "Okafor", tier: "ECONOMY" },
            ],
          },
        ],
      }),
      201,
    );
    const caseUrn: string = opened.urn;

    // Book a refundable room (the simulators' seeded rates decide which are), as allocation and booking would.
    const hotel = (await guaranteedHotels(t.platform, ZX, { checkIn: CHECK_IN, checkOut: CHECK_OUT }))[0]!;
    const allocations = [oneRoomAllocation("GR1", hotel, { checkIn: CHECK_IN, checkOut: CHECK_OUT })];
    await completeWave(t.platform, {
      tenant: ZX,
      caseUrn,
      allocations,
      correlationUrn: "urn:trace:00000000000000000000000000000002",
    });
    await json(await t.call("POST", `/v1/cases/${enc(caseUrn)}/book-rooms`, supervisor), 202);

    let offered: any;
    await expect
      .poll(
        async () => {
          offered = await subCaseOf(t!, operator, caseUrn, "GR1");
          return offered.status;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe("OFFER_READY");
    const reservationId = parseReservationUrn(offered.offer.reservationUrn)!.id;
    const page = await json(
      await t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, operator),
      200,
    );
    const reservation = page.items.find((r: any) => r.id === reservationId);
    expect(reservation.refundable, "the first usable hotel's rate is refundable").toBe(true);
    const sim = simulatorsOf(vendorSim.platform).byId[reservation.vendor as "vendor-a"];
    const ledger = () =>
      sim.backend
        .changesSince(-1)
        .filter((c) => c.reservation.reservationId === reservation.vendorReservationId)
        .map((c) => c.kind);
    const cancelCalls = () => sim.requestsReceived().cancel ?? 0;
    expect(ledger()).toEqual(["CREATED"]);

    // The vendor is down for the first two cancellations: the rollback waits on durable timers to retry.
    sim.failNext("server-error", 2);
    const before = cancelCalls();
    await t.platform.container.resolve(AnswerOffer).decline({
      caseUrn,
      groupId: "GR1",
      by: "urn:passenger:restart",
      correlationUrn: "urn:trace:00000000000000000000000000000003",
      reason: "staying with family",
    });
    await expect.poll(cancelCalls, { timeout: 10_000, interval: 10 }).toBeGreaterThan(before);
    expect(ledger()).toEqual(["CREATED"]);

    // The process stops mid-rollback; a new one starts over the same Redis.
    await t.close();
    t = undefined;
    t = await startTestPlatform({ env: env() });
    supervisor = await t.operatorToken("supervisor@zx.demo");
    operator = await t.operatorToken("operator@zx.demo");

    await expect.poll(ledger, { timeout: 30_000, interval: 100 }).toEqual(["CREATED", "CANCELLED"]);
    await expect
      .poll(
        async () => {
          const p = await json(
            await t!.call("GET", `/v1/orchestration/cases/${enc(caseUrn)}/progress`, operator),
            200,
          );
          return p.subCases[0].saga.runtimeStatus;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe("COMPLETED");
    const after = await json(
      await t.call("GET", `/v1/orchestration/cases/${enc(caseUrn)}/progress`, operator),
      200,
    );
    expect(after.subCases[0].status).toBe("DECLINED");
    expect(after.subCases[0].saga.steps.map((s: any) => [s.name, s.state])).toEqual([
      ["confirm-stay", "COMPLETED"],
      ["issue-wallet-card", "COMPLETED"],
      ["book-transport", "COMPLETED"],
      ["issue-voucher", "COMPLETED"],
      ["notify-passenger", "COMPLETED"],
      ["undo-book-transport", "UNDONE"],
      ["undo-issue-wallet-card", "UNDONE"],
      ["undo-confirm-stay", "UNDONE"],
    ]);
    // Across both processes: one booking and one cancellation in the vendor's ledger, after the two
    // refused attempts (an attempt in flight when the process stopped may run again: the vendor answers
    // a second cancellation with the cancelled reservation and records nothing).
    expect(ledger()).toEqual(["CREATED", "CANCELLED"]);
    expect(cancelCalls() - before).toBeGreaterThanOrEqual(3);
  }, 90_000);
});
