import { expect, vi } from "vitest";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";
import { recordEvents } from "../support/event-recorder.js";

export const ZX = "urn:airline:ZX";
export const VQ = "urn:airline:VQ";
export const enc = encodeURIComponent;

/** A platform with every event of both demo airlines recorded, and helpers for the allocation tests. */
export async function allocationPlatform() {
  const t: TestPlatform = await startTestPlatform();
  const events: DomainEvent<any>[] = [];
  for (const tenant of [ZX, VQ]) {
    recordEvents(t.platform.runtime.bus, { name: `test-spy.${tenant}`, topic: topicFor({ tenant }) }, events);
  }
  const tokens = new Map<string, string>();
  const token = async (who: string) => {
    if (!tokens.has(who)) tokens.set(who, await t.operatorToken(who));
    return tokens.get(who)!;
  };

  /** The first event of `type` for the case (matching `where`), once it has been published. */
  const eventOf = (type: string, caseUrn: string, where: (e: DomainEvent<any>) => boolean = () => true) =>
    vi.waitFor(
      () => {
        const found = events.find((e) => e.type === type && e.caseUrn === caseUrn && where(e));
        expect(found, `${type} for ${caseUrn}`).toBeDefined();
        return found!;
      },
      { timeout: 15_000, interval: 20 },
    );

  let opened = 0;
  /** Declares a disruption: groups of the given tiers (one array per group), one night by default. */
  const openCase = async (
    origin: string,
    groups: string[][],
    who = "supervisor@zx.demo",
    nextDeparture = "2026-11-22T18:00:00Z",
  ): Promise<{ urn: string; groupIds: string[] }> => {
    const n = ++opened;
    const groupIds = groups.map((_, g) => `G${n}-${g + 1}`);
    const response = await t.call("POST", "/v1/cases", await token(who), {
      externalEventId: `allocation-e2e-${origin}-${n}`,
      flight: {
        number: `ZX${300 + n}`,
        origin,
        destination: "LHR",
        scheduledDeparture: "2026-11-21T22:00:00Z",
        status: "CANCELLED",
      },
      nextFlight: { number: `ZX${400 + n}`, scheduledDeparture: nextDeparture },
      passengerGroups: groups.map((tiers, g) => ({
        id: groupIds[g],
        passengers: tiers.map((tier, p) => ({
          id: `p${n}-${g}-${p}`,
          lastName: "Rivera",
          tier,
          contact: { email: `p${n}-${g}-${p}@example.com` },
        })),
      })),
    });
    const body = (await response.json()) as { urn: string };
    expect(response.status, JSON.stringify(body)).toBe(201);
    return { urn: body.urn, groupIds };
  };

  /** Creates and activates a policy for one airport, replacing the demo policy of the same context. */
  const activePolicy = async (
    airline: "ZX" | "VQ",
    airport: string,
    rules: Record<string, unknown>,
  ): Promise<{ urn: string; version: number }> => {
    const domain = airline.toLowerCase();
    const created = await json(
      await t.call("POST", "/v1/policies", await token(`supervisor@${domain}.demo`), {
        name: `${airport} test policy`,
        context: { airport, airline },
        ...rules,
      }),
      201,
    );
    return json(
      await t.call("POST", `/v1/policies/${enc(created.urn)}/activate`, await token(`admin@${domain}.demo`)),
      200,
    );
  };

  /** The wave record (GET /allocation/wave/{urn}) as `who` reads it, which must answer 200. */
  const waveRecord = async (waveUrn: string, who: string) =>
    json(await t.call("GET", `/allocation/wave/${enc(waveUrn)}`, await token(who)), 200);

  return { t, events, token, eventOf, openCase, activePolicy, waveRecord };
}
