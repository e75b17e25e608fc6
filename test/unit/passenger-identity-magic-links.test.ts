import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import type { UnauthorizedError } from "../../src/http/errors.js";
import { passengerSites } from "../../services/passenger-api/tenant-hosts.js";
import { createPassengerIdentity } from "../../src/passenger-identity/passenger-identity.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { CASE, problemOf, ZX } from "./passenger-identity-fixture.js";

const VQ = "urn:airline:VQ";
const BASE = "https://zx.passenger.example";
const DAY_MS = 24 * 60 * 60 * 1000;

async function setup() {
  const clock = new ManualClock("2026-03-01T10:00:00Z");
  const identity = await createPassengerIdentity({
    passengerBaseUrl: BASE,
    captchaSecret: "s",
    onLoginLocked: async () => {},
    counters: new MemoryCounterStore(clock),
    documents: new MemoryDocumentStore(),
    clock,
  });
  return { clock, identity, group: { tenant: ZX, caseUrn: CASE, groupId: "g-1" }, host: { tenant: ZX } };
}

describe("magic links", () => {
  it("point at their own airline's passenger host (spec 1), where alone they can be spent", async () => {
    const hosts = new Map([
      ["zx.localhost", ZX],
      ["vq.localhost", VQ],
      ["vq.example", VQ],
    ]);
    const siteOf = passengerSites(hosts, "http://localhost:8081");
    expect(siteOf(ZX)).toBe("http://zx.localhost:8081");
    expect(siteOf(VQ)).toBe("http://vq.localhost:8081");
    expect(siteOf("urn:airline:QQ")).toBe("http://localhost:8081");
    const clock = new ManualClock("2026-03-01T10:00:00Z");
    const identity = await createPassengerIdentity({
      passengerBaseUrl: "http://localhost:8081",
      passengerSiteOf: siteOf,
      captchaSecret: "s",
      onLoginLocked: async () => {},
      counters: new MemoryCounterStore(clock),
      documents: new MemoryDocumentStore(),
      clock,
    });
    const link = await identity.magicLinks.issueMagicLink({ tenant: VQ, caseUrn: CASE, groupId: "g-1" });
    expect(new URL(link.url).origin).toBe("http://vq.localhost:8081");
    expect((await problemOf(identity.magicLinks.exchange(link.token, { tenant: ZX }))).status).toBe(403);
  });

  it("point at the passenger base URL with the token, a 7-day JWT of its own type carrying the group", async () => {
    const { clock, identity, group } = await setup();
    const link = await identity.magicLinks.issueMagicLink(group);
    const url = new URL(link.url);
    expect(url.origin).toBe(BASE);
    expect(url.searchParams.get("token")).toBe(link.token);
    const claims = decodeJwt(link.token);
    expect(claims).toMatchObject({ iss: BASE, case_urn: CASE, group_id: "g-1", tenant: ZX });
    expect(claims.aud).not.toBe(identity.audience);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 60 * 60);
    expect(link.expiresAt).toBe(new Date(clock.now() + 7 * DAY_MS).toISOString());
    expect(decodeProtectedHeader(link.token)).toMatchObject({ alg: "EdDSA", typ: "passenger-link+jwt" });
  });

  it("exchange once for a session of the same group", async () => {
    const { identity, group, host } = await setup();
    const link = await identity.magicLinks.issueMagicLink(group);
    const session = await identity.magicLinks.exchange(link.token, host);
    await expect(identity.sessions.verify(session.token)).resolves.toMatchObject({
      tenant: ZX,
      caseUrn: CASE,
      groupId: "g-1",
    });
    const second = await problemOf(identity.magicLinks.exchange(link.token, host));
    expect(second.status).toBe(401);
    expect(second.message).toMatch(/already been used/);
  });

  it("let one exchange through when two race with the same link", async () => {
    const { identity, group, host } = await setup();
    const link = await identity.magicLinks.issueMagicLink(group);
    const outcomes = await Promise.allSettled([
      identity.magicLinks.exchange(link.token, host),
      identity.magicLinks.exchange(link.token, host),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
  });

  it("stay valid for 7 days (plus 30 s skew) and are refused as expired after", async () => {
    const { clock, identity, group, host } = await setup();
    const kept = await identity.magicLinks.issueMagicLink(group);
    const late = await identity.magicLinks.issueMagicLink(group);
    await clock.advance(7 * DAY_MS + 29_000);
    await expect(identity.magicLinks.exchange(kept.token, host)).resolves.toMatchObject({ caseUrn: CASE });
    await clock.advance(1_000);
    const problem = await problemOf(identity.magicLinks.exchange(late.token, host));
    expect((problem as UnauthorizedError).reason).toBe("expired_token");
  });

  it("cannot be replaced by a session token", async () => {
    const { identity, group, host } = await setup();
    const session = await identity.sessions.mint(group);
    expect((await problemOf(identity.magicLinks.exchange(session.token, host))).status).toBe(401);
  });

  it("are refused for a closed case (403), and after a reopen when issued before the close (401)", async () => {
    const { clock, identity, group, host } = await setup();
    const link = await identity.magicLinks.issueMagicLink(group);
    await clock.advance(60_000);
    await identity.revocations.revokeCase(CASE, new Date(clock.now()));
    const closed = await problemOf(identity.magicLinks.exchange(link.token, host));
    expect([closed.status, closed.code]).toEqual([403, "case-closed"]);
    expect((await problemOf(identity.magicLinks.issueMagicLink(group))).status).toBe(403);
    await clock.advance(60_000);
    await identity.revocations.caseReopened(CASE);
    expect((await problemOf(identity.magicLinks.exchange(link.token, host))).status).toBe(401);
    const fresh = await identity.magicLinks.issueMagicLink(group);
    await expect(identity.magicLinks.exchange(fresh.token, host)).resolves.toMatchObject({ caseUrn: CASE });
  });

  it("are refused on another airline's passenger host without being used up", async () => {
    const { identity, group, host } = await setup();
    const link = await identity.magicLinks.issueMagicLink(group);
    const problem = await problemOf(identity.magicLinks.exchange(link.token, { tenant: VQ }));
    expect([problem.status, problem.code]).toEqual([403, "cross-tenant"]);
    await expect(identity.magicLinks.exchange(link.token, host)).resolves.toMatchObject({ caseUrn: CASE });
  });
});
