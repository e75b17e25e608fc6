import { describe, expect, it } from "vitest";
import { demoCredentials } from "../../src/demo/demo-credentials.js";
import { createDemoDirectory } from "../../src/demo/demo-directory.js";
import { DEMO_USERS } from "../../src/demo/demo-users.js";
import { OPERATOR_ROLES } from "../../src/domain/roles.js";
import { defaultAudiences } from "../../src/identity/audiences.js";
import { MFA_REQUIRED_ROLES } from "../../src/http/auth/claims.js";
import { ManualClock } from "../../src/runtime/clock.js";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("demo directory", () => {
  const clock = new ManualClock("2026-05-04T10:00:00Z");
  const directory = createDemoDirectory(clock);

  it("has two airlines with three airports each and real coordinates", async () => {
    const organizations = await directory.organizations();
    expect(organizations.map((o) => [o.airlineUrn, o.airports.map((a) => a.code)])).toEqual([
      ["urn:airline:ZX", ["JFK", "BOS", "ORD"]],
      ["urn:airline:VQ", ["LHR", "MAD", "GRU"]],
    ]);
    const gru = organizations[1]!.airports.find((a) => a.code === "GRU")!;
    expect(gru.lat).toBeCloseTo(-23.43, 1);
    expect(gru.lon).toBeCloseTo(-46.47, 1);
  });

  it("has one user per role per airline, an airport-scoped operator, and one user without organization", async () => {
    for (const airline of ["urn:airline:ZX", "urn:airline:VQ"]) {
      const members = DEMO_USERS.filter((u) => u.membership?.airlineUrn === airline);
      for (const role of OPERATOR_ROLES) {
        expect(members.filter((u) => u.membership?.role === role && !u.membership.airport)).toHaveLength(1);
      }
      expect(members.filter((u) => u.membership?.airport)).toHaveLength(1);
    }
    expect(DEMO_USERS.filter((u) => !u.membership).map((u) => u.username)).toEqual(["unaffiliated@demo"]);
  });

  it("enrols every user of an MFA role in TOTP", () => {
    const mfaRoles = new Set<string>(MFA_REQUIRED_ROLES);
    for (const user of DEMO_USERS.filter((u) => u.membership && mfaRoles.has(u.membership.role))) {
      expect(user.totpSecret, user.username).toMatch(/^[A-Z2-7]{32}$/);
    }
  });

  it("lets one partner hold a registration with each airline and has one registration mid-rotation", async () => {
    const registrations = await directory.partnerRegistrations();
    const regulator = registrations.filter((r) => r.partnerUrn === "urn:partner:aero-regulator");
    expect(regulator.map((r) => r.airlineUrn)).toEqual(["urn:airline:ZX", "urn:airline:VQ"]);
    const rotating = registrations.filter((r) => r.previousSecret);
    expect(rotating).toHaveLength(1);
    const window = rotating[0]!.previousSecret!.acceptedUntil - clock.now();
    expect(window).toBeGreaterThan(11 * DAY_MS);
    expect(window).toBeLessThanOrEqual(12 * DAY_MS);
  });

  it("never hands out the password through findUser", async () => {
    expect(await directory.findUser("zx-admin")).not.toHaveProperty("password");
  });
});

describe("demo credentials", () => {
  it("lists each tenant's users and partners in the published shape", () => {
    const baseUrl = "http://localhost:8080";
    const passengerBaseUrl = "http://localhost:8081";
    const credentials = demoCredentials({
      baseUrl,
      passengerBaseUrl,
      authUrl: `${baseUrl}/auth`,
      audiences: defaultAudiences(baseUrl, passengerBaseUrl),
      now: Date.parse("2026-05-04T10:00:00Z"),
    });
    expect(Object.keys(credentials)).toEqual([
      "baseUrl",
      "passengerBaseUrl",
      "authUrl",
      "audiences",
      "tenants",
    ]);
    expect(credentials.audiences).toEqual({
      operator: "http://localhost:8080/v1",
      partner: "http://localhost:8080/partner/v1",
      passenger: "http://localhost:8081/v1",
    });
    const zx = credentials.tenants[0]!;
    expect(zx.airlineUrn).toBe("urn:airline:ZX");
    // Each airline's own passenger host, which the passenger API reads the tenant from.
    expect(zx.passengerBaseUrl).toBe("http://zx.localhost:8081");
    expect(credentials.tenants[1]!.passengerBaseUrl).toBe("http://vq.localhost:8081");
    expect(zx.users).toContainEqual({
      username: "operator.jfk@zx.demo",
      password: "demo-zx-operator-jfk",
      role: "AIRPORT_OPERATOR",
      airport: "JFK",
    });
    expect(zx.users.find((u) => u.role === "ADMIN")?.totpSecret).toBeDefined();
    const vq = credentials.tenants[1]!;
    expect(vq.partners.map((p) => p.clientId)).toEqual(["regulator-vq", "tripdesk-vq"]);
    expect(vq.partners[1]).toEqual({
      clientId: "tripdesk-vq",
      clientSecret: "demo-secret-tripdesk-vq-2",
      scopes: ["cases.read", "bookings.read", "vouchers.read", "cases.events.subscribe"],
      tier: 3,
    });
  });
});
