import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { SubCaseActor } from "../../actors/SubCaseActor.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { CLOSE_CODE } from "../../services/realtime/protocol.js";
import { type RealtimeFixture, startRealtimeFixture } from "./realtime-fixture.js";
import { standDownSubCaseSagas } from "../support/sagas.js";

const path = (urn: string, action: string) => `/v1/subcases/${encodeURIComponent(urn)}/${action}`;

let f: RealtimeFixture;
let tokens: Record<string, string>;

beforeAll(async () => {
  f = await startRealtimeFixture();
  tokens = f.tokens;
  // The compensations here are watched as requests: the saga each one starts stands down.
  standDownSubCaseSagas(f.t.platform.container);
});
afterEach(async () => {
  await f.disconnectAll();
});
afterAll(async () => {
  await f?.close();
});

const closeCase = (caseId: string, reason: string) =>
  f.t.platform.runtime.actors.invoke(CaseActor, caseId, "close", {
    by: "urn:user:zx-supervisor",
    correlationUrn: "urn:trace:close",
    reason,
    role: "OPS_SUPERVISOR",
  });

describe("GET /ws/cases over plain HTTP", () => {
  it("answers 426 with Upgrade: websocket, and the operator OpenAPI document describes the channel", async () => {
    const response = await fetch(`${f.t.base}/ws/cases`);
    expect(response.status).toBe(426);
    expect(response.headers.get("upgrade")).toBe("websocket");
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(await response.json()).toMatchObject({
      status: 426,
      type: expect.stringMatching(/upgrade-required$/),
    });

    const document = (await (await fetch(`${f.t.base}/openapi/operator/v1.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; description: string }>>;
    };
    const channel = document.paths["/ws/cases"]?.get;
    expect(Object.keys(channel?.responses ?? {})).toEqual(expect.arrayContaining(["101", "426"]));
    expect(channel?.description).toContain("4401");
  });
});

describe("authentication", () => {
  it("closes with 4401 on an invalid token in the auth message", async () => {
    const client = await f.connect();
    client.send({ type: "auth", token: "not-a-jwt" });
    expect((await client.closed).code).toBe(CLOSE_CODE.invalidToken);
  });

  it("closes with 4401 when no auth message comes within 5 s (by the injected clock)", async () => {
    const client = await f.connect();
    await f.clock.advance(4_999);
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    await f.clock.advance(1);
    expect((await client.closed).code).toBe(CLOSE_CODE.invalidToken);
  });

  it("closes with 4401 when a command comes before authentication", async () => {
    const client = await f.connect();
    client.send({ type: "subscribe", caseUrn: "urn:case:x" });
    expect((await client.closed).code).toBe(CLOSE_CODE.invalidToken);
  });

  it("accepts the token in Sec-WebSocket-Protocol (bearer, <token>) and refuses a bad one there with 4401", async () => {
    const client = await f.connect(["bearer", tokens["operator@zx.demo"]!]);
    expect(client.socket.protocol).toBe("bearer");
    expect(await client.next((m) => m.type === "ready")).toMatchObject({
      operatorUrn: "urn:user:zx-operator",
    });
    client.socket.close();

    const refused = await f.connect(["bearer", "bad.token.value"]);
    expect((await refused.closed).code).toBe(CLOSE_CODE.invalidToken);
  });

  it("closes with 4403 for a role that may not watch cases", async () => {
    const client = await f.connect();
    client.send({ type: "auth", token: tokens["finance@zx.demo"] });
    expect((await client.closed).code).toBe(CLOSE_CODE.forbidden);
  });
});

describe("case rooms", () => {
  it("sends case:updated and subcase:state-changed to a subscribed operator", async () => {
    const { caseUrn, caseId, subCaseUrns } = await f.openCase({ externalEventId: "rt-updates" });
    const client = await f.connectAs(tokens["operator@zx.demo"]!);
    client.send({ type: "subscribe", caseUrn });
    expect(await client.next((m) => m.type === "subscribed")).toEqual({
      type: "subscribed",
      caseUrn,
      replayed: 0,
      complete: true,
    });

    const compensated = await f.t.call(
      "POST",
      path(subCaseUrns[0]!, "compensate"),
      tokens["operator@zx.demo"],
      {},
    );
    expect(compensated.status).toBe(202);
    expect(
      await client.next((m) => m.event === "subcase:state-changed" && m.data.status === "PROCESSING"),
    ).toMatchObject({
      type: "event",
      caseUrn,
      id: expect.stringMatching(/^urn:event:/),
      data: { subCaseUrn: subCaseUrns[0], status: "PROCESSING", lockedBy: null, cause: "subcase.processing" },
    });
    expect(await client.next((m) => m.event === "case:updated")).toMatchObject({
      data: { caseUrn, status: "OPEN", subCaseUrn: subCaseUrns[0], subCaseStatus: "PROCESSING" },
    });

    await closeCase(caseId, "every passenger rebooked");
    expect(
      await client.next((m) => m.event === "case:updated" && m.data.cause === "case.closed"),
    ).toMatchObject({ caseUrn, data: { caseUrn, status: "CLOSED" } });
    client.socket.close();
  });

  it("refuses rooms of another tenant, another airport or no case with an error, and stays usable", async () => {
    const zx = await f.openCase({ externalEventId: "rt-bos", origin: "BOS" });
    const vq = await f.openCase({ tenant: "urn:airline:VQ", externalEventId: "rt-vq", origin: "LHR" });
    const jfkOperator = await f.connectAs(tokens["operator.jfk@zx.demo"]!);
    jfkOperator.send({ type: "subscribe", caseUrn: zx.caseUrn });
    expect(await jfkOperator.next((m) => m.type === "error")).toMatchObject({
      code: "airport-mismatch",
      caseUrn: zx.caseUrn,
    });
    const before = jfkOperator.messages.length;
    jfkOperator.send({ type: "subscribe", caseUrn: vq.caseUrn });
    expect(await jfkOperator.next((m) => m.type === "error", before)).toMatchObject({
      code: "tenant-mismatch",
    });
    const after = jfkOperator.messages.length;
    jfkOperator.send({ type: "subscribe", caseUrn: "urn:case:00000000-0000-0000-0000-000000000000" });
    expect(await jfkOperator.next((m) => m.type === "error", after)).toMatchObject({ code: "not-found" });
    const last = jfkOperator.messages.length;
    jfkOperator.send({ nonsense: true });
    expect(await jfkOperator.next((m) => m.type === "error", last)).toMatchObject({
      code: "invalid-message",
    });

    const jfk = await f.openCase({ externalEventId: "rt-jfk", origin: "JFK" });
    jfkOperator.send({ type: "subscribe", caseUrn: jfk.caseUrn });
    expect(await jfkOperator.next((m) => m.type === "subscribed")).toMatchObject({ caseUrn: jfk.caseUrn });
    expect(jfkOperator.events("case:updated")).toEqual([]);
    // Nothing of the refused rooms reaches the connection.
    await closeCase(zx.caseId, "closed elsewhere");
    await closeCase(jfk.caseId, "closed here");
    await jfkOperator.next((m) => m.event === "case:updated");
    expect(jfkOperator.events("case:updated").map((m) => m.caseUrn)).toEqual([jfk.caseUrn]);
    jfkOperator.socket.close();
  });

  it("passes saga step and notification events through to the case room", async () => {
    const { caseUrn } = await f.openCase({ externalEventId: "rt-graph" });
    const client = await f.connectAs(tokens["supervisor@zx.demo"]!);
    client.send({ type: "subscribe", caseUrn });
    await client.next((m) => m.type === "subscribed");
    const event = (type: string, data: Record<string, unknown>) => ({
      id: `urn:event:${type}`,
      type,
      tenant: "urn:airline:ZX",
      occurredAt: new Date(f.clock.now()).toISOString(),
      correlationUrn: "urn:trace:saga",
      caseUrn,
      data,
    });
    const topic = topicFor({ tenant: "urn:airline:ZX" });
    await f.t.platform.runtime.bus.publish(
      topic,
      event("graph.step.started", {
        stepUrn: "urn:step:1",
        name: "book-rooms",
        startedAt: "2026-01-01T00:00:00Z",
      }),
    );
    await f.t.platform.runtime.bus.publish(
      topic,
      event("notification.dispatched", { channel: "sms", recipient: "urn:passenger:1" }),
    );
    expect(await client.next((m) => m.event === "graph:step:started")).toMatchObject({
      data: { caseUrn, stepUrn: "urn:step:1", name: "book-rooms" },
    });
    expect(await client.next((m) => m.event === "notification:dispatched")).toMatchObject({
      data: { caseUrn, channel: "sms", recipient: "urn:passenger:1" },
    });
    client.socket.close();
  });
});

describe("replay on reconnect", () => {
  it("replays the case:updated events missed within 60 s after the last seen event, then goes live", async () => {
    const first = await f.openCase({ externalEventId: "rt-replay-1" });
    const second = await f.openCase({ externalEventId: "rt-replay-2" });
    // Time moves on between the opening and what follows: the replay starts at the last seen event's time.
    await f.clock.advance(1);
    const client = await f.connectAs(tokens["operator@zx.demo"]!);
    client.send({ type: "subscribe", caseUrn: first.caseUrn });
    await client.next((m) => m.type === "subscribed");
    await f.t.call("POST", path(first.subCaseUrns[0]!, "compensate"), tokens["operator@zx.demo"], {});
    const seen = await client.next((m) => m.event === "case:updated");
    client.socket.terminate();
    await client.closed;

    await f.clock.advance(10_000);
    await f.t.call("POST", path(first.subCaseUrns[1]!, "compensate"), tokens["operator@zx.demo"], {});
    await expect
      .poll(async () => (await f.hub.updates.replay(first.caseUrn, { lastEventId: seen.id })).messages)
      .toHaveLength(1);
    await f.clock.advance(1);
    await closeCase(second.caseId, "another case: not replayed in this room");
    await closeCase(first.caseId, "missed while away");
    await expect
      .poll(async () => (await f.hub.updates.replay(first.caseUrn, { lastEventId: seen.id })).messages)
      .toHaveLength(2);
    await f.clock.advance(10_000);

    const back = await f.connectAs(tokens["operator@zx.demo"]!);
    back.send({ type: "subscribe", caseUrn: first.caseUrn, lastEventId: seen.id });
    expect(await back.next((m) => m.type === "subscribed")).toMatchObject({ replayed: 2, complete: true });
    await back.next((m) => m.event === "case:updated" && m.data.status === "CLOSED");
    const replayed = back.events("case:updated");
    expect(replayed.map((m) => [m.data.cause, m.replayed])).toEqual([
      ["subcase.processing", true],
      ["case.closed", true],
    ]);
    expect(replayed.map((m) => m.caseUrn)).toEqual([first.caseUrn, first.caseUrn]);

    // `since` works too, and the same events come again (clients drop repeats by id).
    const bySince = await f.connectAs(tokens["operator@zx.demo"]!);
    bySince.send({ type: "subscribe", caseUrn: first.caseUrn, since: seen.at });
    expect(await bySince.next((m) => m.type === "subscribed")).toMatchObject({ replayed: 3, complete: true });
    back.socket.close();
    bySince.socket.close();
  });

  it("replays nothing older than 60 s and says the replay is incomplete", async () => {
    const { caseUrn, subCaseUrns } = await f.openCase({ externalEventId: "rt-replay-old" });
    await f.clock.advance(1);
    const client = await f.connectAs(tokens["operator@zx.demo"]!);
    client.send({ type: "subscribe", caseUrn });
    await client.next((m) => m.type === "subscribed");
    await f.t.call("POST", path(subCaseUrns[0]!, "compensate"), tokens["operator@zx.demo"], {});
    const seen = await client.next((m) => m.event === "case:updated");
    client.socket.terminate();
    await client.closed;
    await f.t.call("POST", path(subCaseUrns[1]!, "compensate"), tokens["operator@zx.demo"], {});
    await expect
      .poll(async () => (await f.hub.updates.replay(caseUrn, { lastEventId: seen.id })).messages)
      .toHaveLength(1);

    await f.clock.advance(61_000);
    const late = await f.connectAs(tokens["operator@zx.demo"]!);
    late.send({ type: "subscribe", caseUrn, lastEventId: seen.id });
    expect(await late.next((m) => m.type === "subscribed")).toMatchObject({ replayed: 0, complete: false });
    late.socket.close();
  });
});

describe("lock release when the holder's connection drops", () => {
  it("releases the holder's locks 50 ms (injected clock) after its last connection drops and tells the room", async () => {
    const { caseUrn, subCaseUrns } = await f.openCase({ externalEventId: "rt-release" });
    const urn = subCaseUrns[0]!;
    const watcher = await f.connectAs(tokens["supervisor@zx.demo"]!);
    watcher.send({ type: "subscribe", caseUrn });
    await watcher.next((m) => m.type === "subscribed");
    const holder = await f.connectAs(tokens["operator@zx.demo"]!);
    expect((await f.t.call("POST", path(urn, "lock"), tokens["operator@zx.demo"])).status).toBe(200);
    await watcher.next(
      (m) => m.event === "subcase:state-changed" && m.data.lockedBy === "urn:user:zx-operator",
    );

    holder.socket.terminate();
    await expect.poll(() => f.hub.connectionsOf("urn:user:zx-operator")).toBe(0);
    const droppedAt = f.clock.now();
    await f.clock.advance(49);
    const actorId = urn.slice("urn:sub-case:".length);
    expect((await f.t.platform.runtime.actors.invoke(SubCaseActor, actorId, "get"))?.lockedBy).toBe(
      "urn:user:zx-operator",
    );
    await f.clock.advance(1);
    const released = await watcher.next(
      (m) => m.event === "subcase:state-changed" && m.data.subCaseUrn === urn && m.data.lockedBy === null,
    );
    const delay = f.clock.now() - droppedAt;
    expect(delay).toBeGreaterThanOrEqual(50);
    expect(delay).toBeLessThanOrEqual(200);
    expect(released.data).toMatchObject({ cause: "subcase.unlocked", status: "OPEN" });
    const changes = watcher.events("subcase:state-changed").filter((m) => m.data.subCaseUrn === urn);
    expect(changes.map((m) => m.data.lockedBy)).toEqual(["urn:user:zx-operator", null]);
    expect((await f.index.get(urn))?.lockedBy).toBeNull();
    watcher.socket.close();
  });

  it("keeps the locks of a holder that comes back within the grace, or still has another connection", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "rt-keep" });
    const urn = subCaseUrns[0]!;
    const actorId = urn.slice("urn:sub-case:".length);
    const lockedBy = async () =>
      (await f.t.platform.runtime.actors.invoke(SubCaseActor, actorId, "get"))?.lockedBy;
    const first = await f.connectAs(tokens["operator@zx.demo"]!);
    await f.t.call("POST", path(urn, "lock"), tokens["operator@zx.demo"]);

    first.socket.terminate();
    await expect.poll(() => f.hub.connectionsOf("urn:user:zx-operator")).toBe(0);
    await f.clock.advance(20);
    const back = await f.connectAs(tokens["operator@zx.demo"]!);
    await f.clock.advance(500);
    expect(await lockedBy()).toBe("urn:user:zx-operator");

    const second = await f.connectAs(tokens["operator@zx.demo"]!);
    back.socket.terminate();
    await expect.poll(() => f.hub.connectionsOf("urn:user:zx-operator")).toBe(1);
    await f.clock.advance(500);
    expect(await lockedBy()).toBe("urn:user:zx-operator");

    second.socket.terminate();
    await expect.poll(() => f.hub.connectionsOf("urn:user:zx-operator")).toBe(0);
    await f.clock.advance(50);
    await expect.poll(lockedBy).toBeNull();
  });
  it("cuts a connection that stops answering pings (half-open TCP), which releases its operator's locks", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "rt-silent" });
    const urn = subCaseUrns[0]!;
    const silent = await f.connectAs(tokens["operator@zx.demo"]!);
    await f.t.call("POST", path(urn, "lock"), tokens["operator@zx.demo"]);
    silent.socket.pause();
    await f.clock.advance(30_000);
    expect(f.hub.connectionsOf("urn:user:zx-operator")).toBe(1);
    await f.clock.advance(30_000);
    await expect.poll(() => f.hub.connectionsOf("urn:user:zx-operator")).toBe(0);
    await f.clock.advance(50);
    await expect.poll(async () => (await f.index.get(urn))?.lockedBy).toBeNull();
  });
});

describe("POST /v1/auth/logout", () => {
  const login = async (username: string, password: string) => {
    const response = await fetch(`${f.t.base}/auth/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        grant_type: "password",
        username,
        password,
        audience: f.t.credentials.audiences.operator,
      }),
    });
    return (await response.json()) as { access_token: string; refresh_token: string };
  };

  it("closes the caller's connections and releases its locks before revoking the refresh token", async () => {
    const user = f.t.credentials.tenants
      .flatMap((t) => t.users)
      .find((u) => u.username === "operator@zx.demo")!;
    const session = await login(user.username, user.password);
    expect(session.refresh_token).toEqual(expect.any(String));
    const { subCaseUrns } = await f.openCase({ externalEventId: "rt-logout" });
    const urn = subCaseUrns[0]!;
    const connection = await f.connectAs(session.access_token);
    expect((await f.t.call("POST", path(urn, "lock"), session.access_token)).status).toBe(200);

    const loggedOut = await f.t.call("POST", "/v1/auth/logout", session.access_token, {
      refreshToken: session.refresh_token,
    });
    expect(loggedOut.status).toBe(204);
    // Step 1 finished before the answer: no connection left, the lock already gone.
    expect(f.hub.connectionsOf("urn:user:zx-operator")).toBe(0);
    expect((await f.index.get(urn))?.lockedBy).toBeNull();
    expect(await connection.closed).toMatchObject({ code: CLOSE_CODE.loggedOut });

    const refresh = await fetch(`${f.t.base}/auth/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: session.refresh_token }),
    });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe("invalid_grant");
    expect((await f.t.call("POST", path(urn, "lock"), session.access_token)).status).toBe(401);
  });

  it("without a refresh token, ends the access token's session; refuses anonymous callers and bad bodies", async () => {
    const user = f.t.credentials.tenants
      .flatMap((t) => t.users)
      .find((u) => u.username === "operator@zx.demo")!;
    const session = await login(user.username, user.password);
    expect((await f.t.call("POST", "/v1/auth/logout", undefined, {})).status).toBe(401);
    const bad = await f.t.call("POST", "/v1/auth/logout", session.access_token, { refreshToken: 42 });
    expect(bad.status).toBe(400);
    expect((await f.t.call("POST", "/v1/auth/logout", session.access_token, {})).status).toBe(204);
    expect((await f.t.call("POST", "/v1/auth/logout", session.access_token, {})).status).toBe(401);
  });
});
