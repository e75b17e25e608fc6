import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, push, ZX } from "./cases-fixtures.js";
import { recordEvents } from "../support/event-recorder.js";

let t: TestPlatform;
let supervisor: string;
let opened: DomainEvent[];

beforeAll(async () => {
  t = await startTestPlatform();
  supervisor = await t.operatorToken("supervisor@zx.demo");
  opened = recordEvents(t.platform.runtime.bus, {
    name: "test.cases-intake.opened",
    topic: topicFor({ tenant: ZX }),
    types: ["case.opened"],
  });
});
afterAll(async () => {
  await t?.close();
});

describe("POST /v1/cases (manual declaration)", () => {
  it("opens a case (201) and answers a replay with the same case (200)", async () => {
    const first = await t.call("POST", "/v1/cases", supervisor, declaration("evt-manual-1"));
    expect(first.status).toBe(201);
    const created = await json(first);
    expect(created).toMatchObject({
      urn: expect.stringMatching(/^urn:case:[0-9a-f-]{36}$/),
      status: "OPEN",
      tenant: ZX,
      wave: { allocations: [] },
      reservations: [],
    });
    expect(created.passengerGroups.map((g: any) => [g.id, g.operationalStatus])).toEqual([
      ["ABC123", "OPEN"],
      ["XYZ789", "OPEN"],
    ]);
    expect(first.headers.get("location")).toBe(`/v1/cases/${encodeURIComponent(created.urn)}`);

    const replay = await t.call("POST", "/cases", supervisor, declaration("evt-manual-1"));
    expect(replay.status).toBe(200);
    expect((await json(replay)).urn).toBe(created.urn);
  });

  it("refuses an airport operator (403), a bad body (400 with field errors) and no token (401)", async () => {
    const operator = await t.operatorToken("operator@zx.demo");
    expect((await t.call("POST", "/v1/cases", operator, declaration("evt-manual-2"))).status).toBe(403);
    const finance = await t.operatorToken("finance@zx.demo");
    expect((await t.call("POST", "/cases", finance, declaration("evt-manual-2"))).status).toBe(403);

    const bad = await t.call("POST", "/v1/cases", supervisor, {
      ...declaration("evt-manual-2"),
      flight: { number: "ZX100", origin: "jfk" },
    });
    expect(bad.status).toBe(400);
    const fields = (await json(bad)).errors.map((e: any) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(["/flight/origin", "/flight/destination", "/flight/scheduledDeparture"]),
    );
    expect((await t.call("POST", "/v1/cases", undefined, declaration("evt-manual-2"))).status).toBe(401);
  });

  it("refuses a manifest naming a passenger twice", async () => {
    const body = declaration("evt-manual-3");
    body.passengerGroups[1]!.passengers[0]!.id = "p1";
    const response = await t.call("POST", "/v1/cases", supervisor, body);
    expect(response.status).toBe(400);
    expect((await json(response)).type).toMatch(/\/invalid\/passenger-repeated$/);
  });
});

describe("POST /partner/v1/disruptions (disruption push)", () => {
  it("opens one case for 100 concurrent identical pushes and emits case.opened once", async () => {
    const token = await t.partnerToken("skyhub-zx");
    const before = opened.length;
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.call("POST", "/partner/v1/disruptions", token, push("evt-push-100")),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(202));
    const bodies = await Promise.all(responses.map(json));
    expect(new Set(bodies.map((b) => b.caseUrn)).size).toBe(1);
    expect(new Set(bodies.map((b) => b.correlationUrn)).size).toBe(1);
    expect(bodies[0]).toMatchObject({ status: "OPEN", subCaseCount: 2 });

    await expect.poll(() => opened.length - before).toBe(1);
    const event = opened.find((e) => e.caseUrn === bodies[0]!.caseUrn)!;
    expect((event.data as any).passengerGroups.map((g: any) => g.id)).toEqual(["QWE123", "RTY456"]);

    const feed = await json(await t.call("GET", "/partner/v1/disruptions", token));
    expect(feed.items.filter((d: any) => d.externalEventId === "evt-push-100")).toEqual([
      expect.objectContaining({
        caseUrn: bodies[0]!.caseUrn,
        source: "partner",
        disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: "2026-11-21T18:00:00Z" },
        passengerCount: 3,
        groupCount: 2,
      }),
    ]);
  });

  it("groups passengers by PNR with ids <PNR>-<n>, readable by the operator", async () => {
    const token = await t.partnerToken("skyhub-zx");
    const { caseUrn } = await json(
      await t.call("POST", "/partner/v1/disruptions", token, push("evt-push-ids")),
    );
    const detail = await json(await t.call("GET", `/v1/cases/${encodeURIComponent(caseUrn)}`, supervisor));
    expect(detail.flight).toMatchObject({ number: "ZX200", origin: "BOS", status: "CANCELLED" });
    expect(detail.nextFlight).toEqual({ number: "ZX202", scheduledDeparture: "2026-11-22T20:00:00Z" });
    expect(detail.passengerGroups.map((g: any) => [g.id, g.pnr, g.passengers.map((p: any) => p.id)])).toEqual(
      [
        ["QWE123", "QWE123", ["QWE123-1", "QWE123-2"]],
        ["RTY456", "RTY456", ["RTY456-1"]],
      ],
    );
  });

  it("refuses another airline's airlineUrn, a missing scope, and a bad body", async () => {
    const token = await t.partnerToken("skyhub-zx");
    const foreign = await t.call(
      "POST",
      "/partner/v1/disruptions",
      token,
      push("evt-push-x", { airlineUrn: "urn:airline:VQ" }),
    );
    expect(foreign.status).toBe(403);
    const regulator = await t.partnerToken("regulator-zx");
    const unscoped = await t.call("POST", "/partner/v1/disruptions", regulator, push("evt-push-x"));
    expect(unscoped.status).toBe(403);
    expect(unscoped.headers.get("www-authenticate")).toContain("insufficient_scope");
    const bad = await t.call("POST", "/partner/v1/disruptions", token, { externalEventId: "evt-push-x" });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors.map((e: any) => e.field)).toEqual(
      expect.arrayContaining(["/airlineUrn", "/flight", "/disruption", "/passengers"]),
    );
    expect((await t.call("GET", "/partner/v1/disruptions", await t.partnerToken("tripdesk-vq"))).status).toBe(
      403,
    );
  });

  it("keeps airlines apart: the same externalEventId opens another case at another airline", async () => {
    const zx = await json(
      await t.call("POST", "/partner/v1/disruptions", await t.partnerToken("skyhub-zx"), push("evt-shared")),
    );
    const vqSupervisor = await t.operatorToken("supervisor@vq.demo");
    const vq = await json(
      await t.call(
        "POST",
        "/v1/cases",
        vqSupervisor,
        declaration("evt-shared", {
          flight: { ...declaration("x").flight, origin: "LHR", destination: "MAD" },
        }),
      ),
    );
    expect(vq.urn).not.toBe(zx.caseUrn);
    const regulatorVq = await t.partnerToken("regulator-vq");
    const feed = await json(await t.call("GET", "/partner/v1/disruptions", regulatorVq));
    expect(feed.items.map((d: any) => d.caseUrn)).toEqual([vq.urn]);
  });
});

describe("the case routes in the OpenAPI documents", () => {
  it("documents them, the upload as multipart/form-data, in valid documents", async () => {
    const operatorDoc = await json(await t.call("GET", "/openapi/operator/v1.json"));
    const partnerDoc = await json(await t.call("GET", "/openapi/partner/v1.json"));
    for (const document of [operatorDoc, partnerDoc]) {
      const result = await new Validator().validate(document as never);
      expect(result.errors).toBeUndefined();
    }
    expect(Object.keys(operatorDoc.paths)).toEqual(
      expect.arrayContaining([
        "/v1/cases",
        "/cases",
        "/v1/cases/dashboard",
        "/v1/cases/{caseUrn}",
        "/v1/cases/{caseUrn}/manifest",
        "/cases/{caseUrn}/groups:merge",
        "/cases/{caseUrn}/groups/{groupId}/split",
        "/cases/{caseUrn}/reaccommodate",
      ]),
    );
    const upload = operatorDoc.paths["/cases/{caseUrn}/passengers:bulk"].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(["multipart/form-data"]);
    expect(Object.keys(partnerDoc.paths)).toEqual(
      expect.arrayContaining(["/partner/v1/disruptions", "/partner/v1/cases/{caseUrn}/manifest"]),
    );
  });
});
