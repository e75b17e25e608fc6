/**
 * The saga's meal card and ground transport legs on the platform, as `npm start` runs them: a
 * pushed disruption at a demo airport is booked by the demo policy, each group's run issues its
 * meal card (its meal allowance: the wait is long and the cause the airline's) and books its rides,
 * and a decline cancels the rides and the card before the room.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerOffer } from "../../src/app/sub-cases/answer-offer.js";
import { ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import { TRANSPORT_DIRECTIONS, segmentUrnFor } from "../../src/domain/transport/transport-segment.js";
import { overnightPush } from "../support/overnight-flights.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "./cases-fixtures.js";

const enc = encodeURIComponent;
let t: TestPlatform;
let operator: string;
let caseUrn: string;

beforeAll(async () => {
  t = await startTestPlatform();
  operator = await t.operatorToken("operator@zx.demo");
  const airport = ZEPHYR_AIR.airports.find((a) => a.code === "JFK")!;
  const pushed = await t.call(
    "POST",
    "/partner/v1/disruptions",
    await t.partnerToken("skyhub-zx"),
    overnightPush({
      externalEventId: `SAGA-LEGS-${Date.now()}`,
      airport,
      flightNumber: 300,
      reason: "MAINTENANCE",
      // Flights a day later than the next overnight ones: the declined room's free cancellation
      // (18:00 UTC on check-in day in the simulators) is then open at any hour the test runs.
      from: Date.now() + 24 * 60 * 60 * 1000,
      passengers: [
        {
          pnr: "LEG111",
          lastName: "Rivera",
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { email: "r@example.com" },
        },
        {
          pnr: "LEG222",
          lastName: "Okafor",
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { email: "o@example.com" },
        },
      ],
    }),
  );
  expect(pushed.status).toBe(202);
  caseUrn = (await json(pushed)).caseUrn as string;
});
afterAll(async () => {
  await t?.close();
});

async function progress(): Promise<Record<string, any>> {
  return json(await t.call("GET", `/v1/orchestration/cases/${enc(caseUrn)}/progress`, operator));
}

async function cards(): Promise<Record<string, any>[]> {
  return (await json(await t.call("GET", `/v1/wallet/cases/${enc(caseUrn)}/cards`, operator))).items;
}

async function segmentsOf(groupId: string): Promise<Record<string, any>[]> {
  return Promise.all(
    TRANSPORT_DIRECTIONS.map(async (direction) =>
      json(
        await t.call(
          "GET",
          `/transport/segments/${enc(segmentUrnFor(caseUrn, groupId, direction))}`,
          operator,
        ),
      ),
    ),
  );
}

describe("the saga's meal card and transport legs", { timeout: 90_000 }, () => {
  let groups: string[] = [];

  it("issues each group's meal card and books its rides before the voucher and the offer", async () => {
    await expect
      .poll(async () => (await progress()).subCases?.filter((s: any) => s.status === "OFFER_READY").length, {
        timeout: 60_000,
        interval: 100,
      })
      .toBe(2);
    const subCases = (await progress()).subCases as any[];
    groups = subCases.map((s) => s.groupId).sort();
    for (const subCase of subCases) {
      expect(subCase.saga.steps.map((s: any) => [s.name, s.state])).toEqual([
        ["confirm-stay", "COMPLETED"],
        ["issue-wallet-card", "COMPLETED"],
        ["book-transport", "COMPLETED"],
        ["issue-voucher", "COMPLETED"],
        ["notify-passenger", "COMPLETED"],
      ]);
    }
    const issued = await cards();
    expect(issued.map((c) => [c.groupId, c.status, c.currency]).sort()).toEqual(
      groups.map((g) => [g, "LOADED", "USD"]),
    );
    for (const card of issued) expect(card.initialBalance).toBeGreaterThan(0);
    for (const groupId of groups) {
      expect((await segmentsOf(groupId)).map((s) => s.status)).toEqual(["BOOKED", "BOOKED"]);
    }
  });

  it("cancels the declining group's rides and card, and keeps the other group's", async () => {
    const [declining, keeping] = groups as [string, string];
    await t.platform.container.resolve(AnswerOffer).decline({
      caseUrn,
      groupId: declining,
      by: `urn:passenger:${declining}`,
      correlationUrn: `urn:trace:${"d".repeat(32)}`,
      reason: "staying with family",
    });
    await expect
      .poll(async () => (await cards()).find((c) => c.groupId === declining)?.status, { timeout: 30_000 })
      .toBe("CANCELLED");
    await expect
      .poll(async () => (await segmentsOf(declining)).map((s) => s.status), { timeout: 30_000 })
      .toEqual(["CANCELLED", "CANCELLED"]);
    const declined = ((await progress()).subCases as any[]).find((s) => s.groupId === declining);
    await expect
      .poll(async () =>
        (((await progress()).subCases as any[]).find((s) => s.groupId === declining).saga.steps as any[])
          .filter((s) => s.name.startsWith("undo-"))
          .map((s) => [s.name, s.state]),
      )
      .toEqual([
        ["undo-book-transport", "UNDONE"],
        ["undo-issue-wallet-card", "UNDONE"],
        ["undo-confirm-stay", "UNDONE"],
      ]);
    expect(declined.status).toBe("DECLINED");
    expect((await cards()).find((c) => c.groupId === keeping)?.status).toBe("LOADED");
    expect((await segmentsOf(keeping)).map((s) => s.status)).toEqual(["BOOKED", "BOOKED"]);
  });
});
