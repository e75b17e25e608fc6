import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { DocumentPassengerDirectory } from "../../src/passenger-identity/document-passenger-directory.js";
import type { LoginLockedEvent } from "../../src/passenger-identity/login-attempts.js";
import { createPassengerIdentity } from "../../src/passenger-identity/passenger-identity.js";
import type { PnrLoginInput } from "../../src/passenger-identity/pnr-login.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { CASE, passengerIdentity, problemOf, riveraLogin, ZX } from "./passenger-identity-fixture.js";

const VQ = "urn:airline:VQ";
const MINUTE = 60_000;

async function setup() {
  const clock = new ManualClock("2026-03-01T10:00:00Z");
  const counters = new MemoryCounterStore(clock);
  const documents = new MemoryDocumentStore();
  const alerts: LoginLockedEvent[] = [];
  const identity = await passengerIdentity({ counters, documents, clock }, async (event) => {
    alerts.push(event);
  });
  const directory = new DocumentPassengerDirectory(documents);
  await directory.upsert(riveraLogin({ lastName: "Müller-Núñez" }));
  await directory.upsert(riveraLogin());

  const captcha = async (): Promise<string> => {
    const challenge = await identity.captcha.issueChallenge();
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  };
  const attempt = async (overrides: Partial<PnrLoginInput> = {}) =>
    identity.login.login({
      tenant: ZX,
      pnr: "ABC123",
      lastName: "Rivera",
      captcha: await captcha(),
      ip: "203.0.113.7",
      ...overrides,
    });
  return { clock, identity, directory, alerts, captcha, attempt };
}

describe("PNR login", () => {
  it("gives a 7-day session token for the passenger's case with a solved captcha", async () => {
    const { clock, identity, attempt } = await setup();
    const result = await attempt();
    expect(result.caseUrn).toBe(CASE);
    expect(result.expiresAt).toBe(new Date(clock.now() + 7 * 24 * 60 * MINUTE).toISOString());
    const principal = await identity.sessions.verify(result.sessionToken);
    expect(principal).toMatchObject({ surface: "passenger", tenant: ZX, caseUrn: CASE, groupId: "g-1" });
    expect(decodeJwt(result.sessionToken).case_urn).toBe(CASE);
  });

  it("reads the last name without case, accents or surrounding blanks, and the PNR without case", async () => {
    const { attempt } = await setup();
    for (const lastName of ["  MULLER-NUNEZ ", "müller-núñez", "Muller-Nunez"]) {
      expect(
        (await attempt({ lastName, pnr: " abc123 ", ip: `198.51.100.${lastName.length}` })).caseUrn,
      ).toBe(CASE);
    }
  });

  it("answers a wrong last name and an unknown PNR with the same 401", async () => {
    const { attempt } = await setup();
    const wrongName = await problemOf(attempt({ lastName: "Smith" }));
    const unknownPnr = await problemOf(attempt({ pnr: "ZZZ999" }));
    for (const problem of [wrongName, unknownPnr]) {
      expect(problem.status).toBe(401);
      expect(problem.code).toBe("pnr-login-failed");
    }
    expect(wrongName.message).toBe(unknownPnr.message);
    expect(wrongName.message).not.toMatch(/last name is|pnr is|unknown/i);
  });

  it("does not find a booking of another airline", async () => {
    const { attempt } = await setup();
    expect((await problemOf(attempt({ tenant: VQ }))).status).toBe(401);
  });

  it("refuses a closed case with 403 case-closed", async () => {
    const { directory, attempt } = await setup();
    await directory.upsert(riveraLogin({ caseStatus: "CLOSED" }));
    const problem = await problemOf(attempt());
    expect([problem.status, problem.code]).toEqual([403, "case-closed"]);
  });

  it("prefers the open case when a PNR is in a closed one as well", async () => {
    const { directory, attempt } = await setup();
    const older = "urn:case:00000000-0000-4000-8000-000000000000";
    await directory.upsert(riveraLogin({ caseUrn: older, groupId: "g-0", caseStatus: "CLOSED" }));
    expect((await attempt()).caseUrn).toBe(CASE);
  });

  it("refuses a missing, garbage, expired or reused captcha with 400 before looking at the booking", async () => {
    const { clock, captcha, attempt } = await setup();
    const missing = await problemOf(attempt({ captcha: "", ip: "10.0.0.1" }));
    expect([missing.status, missing.code]).toEqual([400, "captcha-required"]);
    const garbage = await problemOf(attempt({ captcha: "garbage", ip: "10.0.0.2" }));
    expect([garbage.status, garbage.code]).toEqual([400, "captcha-invalid"]);
    const stale = await captcha();
    await clock.advance(5 * MINUTE + 1);
    const expired = await problemOf(attempt({ captcha: stale, ip: "10.0.0.3" }));
    expect([expired.status, expired.code]).toEqual([400, "captcha-expired"]);
    const once = await captcha();
    await attempt({ captcha: once, ip: "10.0.0.4" });
    const reused = await problemOf(attempt({ captcha: once, ip: "10.0.0.5" }));
    expect([reused.status, reused.code]).toEqual([400, "captcha-reused"]);
    // A wrong last name with a bad captcha still reports the captcha: credentials are not checked.
    const unchecked = await problemOf(attempt({ captcha: "garbage", lastName: "Smith", ip: "10.0.0.6" }));
    expect(unchecked.status).toBe(400);
  });

  describe("attempt limits", () => {
    it("allows 5 attempts per 15 minutes per IP, then 429 with Retry-After, then again after the window", async () => {
      const { clock, attempt } = await setup();
      const ip = "203.0.113.50";
      for (let i = 0; i < 5; i++) {
        // Failures count as much as successes.
        if (i % 2 === 0) await attempt({ ip });
        else await problemOf(attempt({ ip, lastName: "Wrong" }));
      }
      await clock.advance(5 * MINUTE);
      const refused = await problemOf(attempt({ ip }));
      expect(refused.status).toBe(429);
      expect(refused.headers["Retry-After"]).toBe(String(10 * 60));
      // Another address is not affected.
      await expect(attempt({ ip: "203.0.113.51" })).resolves.toMatchObject({ caseUrn: CASE });
      await clock.advance(10 * MINUTE);
      await expect(attempt({ ip })).resolves.toMatchObject({ caseUrn: CASE });
    });

    it("checks the limit before the captcha: a sixth attempt is 429 even with a bad captcha", async () => {
      const { attempt } = await setup();
      for (let i = 0; i < 5; i++) await problemOf(attempt({ captcha: "garbage", ip: "192.0.2.1" }));
      expect((await problemOf(attempt({ captcha: "garbage", ip: "192.0.2.1" }))).status).toBe(429);
    });

    it("allows 10 attempts per 24 hours per PNR across addresses, and alerts exactly once when locked", async () => {
      const { clock, alerts, attempt } = await setup();
      for (let i = 0; i < 10; i++) {
        await problemOf(attempt({ ip: `198.51.100.${i}`, lastName: "Guess" }));
      }
      expect(alerts).toEqual([]);
      await clock.advance(60 * MINUTE);
      const locked = await problemOf(attempt({ ip: "198.51.100.200" }));
      expect(locked.status).toBe(429);
      expect(locked.headers["Retry-After"]).toBe(String(23 * 60 * 60));
      await problemOf(attempt({ ip: "198.51.100.201" }));
      await problemOf(attempt({ ip: "198.51.100.202", pnr: "abc123" }));
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({
        type: "passenger.login-locked",
        tenant: ZX,
        data: {
          pnr: "A****3",
          ip: "198.51.100.200",
          attempts: 10,
          lockedUntil: new Date(Date.parse("2026-03-02T10:00:00Z")).toISOString(),
        },
      });
      expect(JSON.stringify(alerts[0])).not.toContain("ABC123");
      // The same PNR of another airline is another booking.
      await expect(attempt({ tenant: VQ, ip: "198.51.100.203" })).rejects.toMatchObject({ status: 401 });
      await clock.advance(23 * 60 * MINUTE);
      await expect(attempt({ ip: "198.51.100.204" })).resolves.toMatchObject({ caseUrn: CASE });
    });

    it("alerts again in a later window, and retries an alert whose delivery failed", async () => {
      const clock = new ManualClock("2026-03-01T10:00:00Z");
      const counters = new MemoryCounterStore(clock);
      let deliveries = 0;
      let failNext = true;
      const identity = await createPassengerIdentity({
        passengerBaseUrl: "https://zx.passenger.example",
        captchaSecret: "s",
        captchaComplexity: { algorithm: "SHA-256", cost: 1, counterMin: 1, counterMax: 5 },
        loginLimits: {
          perIp: { max: 100, windowMs: 15 * MINUTE },
          perPnr: { max: 1, windowMs: 60 * MINUTE },
        },
        onLoginLocked: async () => {
          if (failNext) {
            failNext = false;
            throw new Error("bus down");
          }
          deliveries++;
        },
        counters,
        documents: new MemoryDocumentStore(),
        clock,
      });
      const login = () =>
        identity.login.login({ tenant: ZX, pnr: "QQQ111", lastName: "X", captcha: "", ip: "192.0.2.9" });
      await expect(login()).rejects.toMatchObject({ status: 400 });
      await expect(login()).rejects.toThrow("bus down");
      await expect(login()).rejects.toMatchObject({ status: 429 });
      await expect(login()).rejects.toMatchObject({ status: 429 });
      expect(deliveries).toBe(1);
      await clock.advance(60 * MINUTE);
      await expect(login()).rejects.toMatchObject({ status: 400 });
      await expect(login()).rejects.toMatchObject({ status: 429 });
      expect(deliveries).toBe(2);
    });
  });
});
