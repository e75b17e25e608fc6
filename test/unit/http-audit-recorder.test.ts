import { describe, expect, it } from "vitest";
import { AuditLog } from "../../src/app/audit-log.js";
import { MemoryAuditTrail } from "../../src/app/memory-audit-trail.js";
import { payloadHash } from "../../src/domain/canonical-json.js";
import { auditRecorder } from "../../src/http/audit-recorder.js";
import type { AuditedRequest } from "../../src/http/request-pipeline.js";
import { ManualClock } from "../../src/runtime/clock.js";

const principal = { surface: "partner", actorUrn: "urn:partner:p1", tenant: "urn:airline:ZX" };

function read(route: object, path: string, search: string, query: Record<string, unknown>): AuditedRequest {
  return {
    route: { method: "GET", operationId: "listThings", ...route },
    principal,
    input: {
      query,
      params: {},
      body: undefined,
      correlationUrn: "urn:trace:1",
      ctx: { path, url: `${path}${search}` },
    },
    response: { status: 200, headers: {}, body: {} },
  } as unknown as AuditedRequest;
}

describe("auditRecorder", () => {
  it("hashes each read's method, path and validated query, the same read alike every time", async () => {
    const log = new AuditLog(new MemoryAuditTrail(), new ManualClock(0));
    const record = auditRecorder(log);
    const route = { path: "/things" };
    await record(read(route, "/things", "?limit=5", { limit: 5 }));
    await record(read(route, "/things", "?limit=5", { limit: 5 }));
    await record(read(route, "/things", "?limit=6", { limit: 6 }));
    await record(read({ path: "/other", operationId: "listOther" }, "/other", "?limit=5", { limit: 5 }));
    const { items: entries } = await log.query({ tenant: principal.tenant, limit: 10 });
    const expected = (path: string, limit: number) =>
      payloadHash({ method: "GET", path, query: { limit }, body: undefined });
    expect(entries.map((e) => e.payloadHash)).toEqual([
      expected("/things", 5),
      expected("/things", 5),
      expected("/things", 6),
      expected("/other", 5),
    ]);
    expect(new Set(entries.map((e) => e.payloadHash)).size).toBe(3);
  });
});
