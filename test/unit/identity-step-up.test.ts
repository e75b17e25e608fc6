import { describe, expect, it } from "vitest";
import { DEMO_AIRLINES } from "../../src/demo/demo-airlines.js";
import { DEMO_USERS } from "../../src/demo/demo-users.js";
import { OperatorPasskeys } from "../../src/app/operator-factors/operator-passkeys.js";
import { SignInHistories } from "../../src/app/operator-factors/sign-in-history.js";
import {
  checkOperatorLogin,
  factorsOf,
  type LoginAttempt,
  type MemberUser,
  signInStillPossible,
} from "../../src/identity/operator-login.js";
import { signInRiskAssessor, type SignInRiskSettings } from "../../src/identity/sign-in-risk.js";
import { StaticDirectory, type StaticUser } from "../../src/identity/static-directory.js";
import { totpCode } from "../../src/identity/totp.js";
import type { OperatorRole } from "../../src/domain/roles.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { operatorSignIn, storedPasskey } from "../support/operator-sign-in.js";

const HOUR = 3_600_000;
const NEW_YORK = "198.51.100.7";
const LONDON = "203.0.113.9";
const TOR_EXIT = "192.0.2.66";
const RISK: SignInRiskSettings = {
  highRiskAddresses: ["192.0.2.64/26", "2001:db8:bad::/48"],
  addressLocations: {
    "198.51.100.0/24": { lat: 40.64, lon: -73.78 },
    "203.0.113.0/24": { lat: 51.47, lon: -0.45 },
  },
  maxTravelKmPerHour: 1000,
};
const OPERATOR_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** The demo directory plus users with the enrolments a rule needs, and an airline setting. */
function directoryWith(extraUsers: StaticUser[], airportOperatorMfa?: "always" | "on-risk") {
  return new StaticDirectory({
    organizations: DEMO_AIRLINES.map((o) => (airportOperatorMfa ? { ...o, airportOperatorMfa } : o)),
    users: [...DEMO_USERS, ...extraUsers],
    partners: [],
  });
}

function user(id: string, role: OperatorRole, extra: Partial<StaticUser> = {}): StaticUser {
  return {
    id,
    username: `${id}@zx.demo`,
    email: `${id}@zx.demo`,
    password: `pw-${id}`,
    membership: { airlineUrn: "urn:airline:ZX", role },
    ...extra,
  };
}

function setup(extraUsers: StaticUser[] = [], airportOperatorMfa?: "always" | "on-risk") {
  const clock = new ManualClock("2026-05-04T10:00:00Z");
  const documents = new MemoryDocumentStore();
  const signIn = operatorSignIn(directoryWith(extraUsers, airportOperatorMfa), clock, {
    documents,
    risk: RISK,
  });
  const login = (id: string, attempt: Partial<LoginAttempt> = {}) =>
    checkOperatorLogin(signIn, {
      username: `${id}@zx.demo`,
      password: `pw-${id}`,
      address: NEW_YORK,
      ...attempt,
    });
  const passkeys = new OperatorPasskeys(documents);
  const enrolPasskey = (userId: string) => passkeys.add(storedPasskey(userId, "urn:airline:ZX", clock.now()));
  return { clock, documents, login, enrolPasskey, histories: new SignInHistories(documents) };
}

describe("operator sign-in with second-factor rules and step-up (spec 5.1)", () => {
  it("refuses an ADMIN whose only factor is SMS, saying SMS is not allowed", async () => {
    const { login } = setup([user("sms-admin", "ADMIN", { smsNumber: "+15550100" })]);
    const outcome = await login("sms-admin");
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(/SMS is not allowed for ADMIN/);
  });

  it("lets a supervisor with SMS alone reach the SMS step, which only the login page sends", async () => {
    const { login } = setup([user("sms-supervisor", "OPS_SUPERVISOR", { smsNumber: "+15550101" })]);
    const outcome = await login("sms-supervisor");
    expect(!outcome.ok && outcome.reason).toMatch(
      /last resort.*code by SMS, which only the login page sends/,
    );
  });

  it("asks an ADMIN with a passkey and no TOTP to use the login page (a script cannot present a passkey)", async () => {
    const { login, enrolPasskey } = setup([user("key-admin", "ADMIN")]);
    expect((await login("key-admin")).ok).toBe(false);
    await enrolPasskey("key-admin");
    const outcome = await login("key-admin");
    expect(!outcome.ok && outcome.reason).toMatch(/confirms with a passkey: sign in on the login page/);
  });

  it("signs an AIRPORT_OPERATOR in on password alone, unless the airline always asks", async () => {
    const operator = user("op", "AIRPORT_OPERATOR", { totpSecret: OPERATOR_SECRET });
    expect(await setup([operator]).login("op")).toMatchObject({ ok: true, amr: ["pwd"] });
    const strict = setup([operator], "always");
    const withoutCode = await strict.login("op");
    expect(!withoutCode.ok && withoutCode.reason).toMatch(/the airline requires a second factor.*TOTP/);
    expect(await strict.login("op", { otp: totpCode(OPERATOR_SECRET, strict.clock.now()) })).toMatchObject({
      ok: true,
      amr: ["pwd", "otp"],
    });
  });

  it("steps up from a high-risk address (IPv4, IPv4-mapped and IPv6), refusing an operator with no factor", async () => {
    const { login } = setup([
      user("op", "AIRPORT_OPERATOR", { totpSecret: OPERATOR_SECRET }),
      user("bare", "AIRPORT_OPERATOR"),
    ]);
    for (const address of [TOR_EXIT, `::ffff:${TOR_EXIT}`, "2001:db8:bad::1"]) {
      const outcome = await login("op", { address });
      expect(!outcome.ok && outcome.reason, address).toMatch(/high-risk address.*TOTP/);
    }
    const bare = await login("bare", { address: TOR_EXIT });
    expect(!bare.ok && bare.reason).toMatch(/high-risk address.*none is enrolled/);
    expect((await login("bare", { address: "2001:db8:1::1" })).ok).toBe(true);
  });

  it("trusts the first device, then steps up on a device never seen for the user", async () => {
    const { login } = setup([user("op", "AIRPORT_OPERATOR", { totpSecret: OPERATOR_SECRET })]);
    expect((await login("op", { device: "device-aaaaaaaaaaaa" })).ok).toBe(true);
    expect((await login("op", { device: "device-aaaaaaaaaaaa" })).ok).toBe(true);
    const other = await login("op", { device: "device-bbbbbbbbbbbb" });
    expect(!other.ok && other.reason).toMatch(/new device/);
    // Scripts keep no device cookie: the device signal does not apply to them.
    expect((await login("op")).ok).toBe(true);
  });

  it("steps up on impossible travel: New York then London an hour later, not ten hours later", async () => {
    const { login, clock } = setup([user("op", "AIRPORT_OPERATOR", { totpSecret: OPERATOR_SECRET })]);
    expect((await login("op", { address: NEW_YORK })).ok).toBe(true);
    await clock.advance(HOUR);
    const tooFast = await login("op", { address: LONDON });
    expect(!tooFast.ok && tooFast.reason).toMatch(/impossible travel/);
    await clock.advance(9 * HOUR);
    expect((await login("op", { address: LONDON })).ok).toBe(true);
    // An address the table does not place neither flags nor moves the last known place.
    expect((await login("op", { address: "192.0.2.1" })).ok).toBe(true);
  });

  it("keeps the histories per tenant", async () => {
    const { login, histories } = setup([user("op", "AIRPORT_OPERATOR")]);
    await login("op", { device: "device-aaaaaaaaaaaa" });
    expect(await histories.find("urn:airline:ZX", "op")).toMatchObject({ devices: ["device-aaaaaaaaaaaa"] });
    expect(await histories.find("urn:airline:VQ", "op")).toBeUndefined();
  });
});

describe("removing a second factor", () => {
  const directory = directoryWith([]);
  const member = (role: OperatorRole) => user("someone", role) as MemberUser;

  it("keeps the last factor an ADMIN may use, SMS not counting", async () => {
    expect(await signInStillPossible(directory, member("ADMIN"), new Set(["totp"]))).toBe(true);
    expect(await signInStillPossible(directory, member("ADMIN"), new Set(["sms"]))).toBe(false);
    expect(await signInStillPossible(directory, member("ADMIN"), new Set())).toBe(false);
  });

  it("lets a supervisor fall back on SMS, and an airport operator of an on-risk airline keep nothing", async () => {
    expect(await signInStillPossible(directory, member("OPS_SUPERVISOR"), new Set(["sms"]))).toBe(true);
    expect(await signInStillPossible(directory, member("AIRPORT_OPERATOR"), new Set())).toBe(true);
    const strict = directoryWith([], "always");
    expect(await signInStillPossible(strict, member("AIRPORT_OPERATOR"), new Set())).toBe(false);
  });

  it("counts what a user holds: passkeys, a TOTP secret, a phone number", () => {
    expect(factorsOf(user("u", "ADMIN", { totpSecret: OPERATOR_SECRET, smsNumber: "+1555" }), 2)).toEqual(
      new Set(["webauthn", "totp", "sms"]),
    );
    expect(factorsOf(user("u", "ADMIN"), 0)).toEqual(new Set());
  });
});

describe("risk tables", () => {
  it("refuses a range that is not CIDR and a location without coordinates at start-up", () => {
    expect(() => signInRiskAssessor({ ...RISK, highRiskAddresses: ["10.0.0.0/33"] })).toThrow(
      /MFA_HIGH_RISK_ADDRESSES/,
    );
    expect(() => signInRiskAssessor({ ...RISK, highRiskAddresses: ["not-an-address"] })).toThrow(
      /not an address range/,
    );
    expect(() =>
      signInRiskAssessor({ ...RISK, addressLocations: { "10.0.0.0/8": { lat: Number.NaN, lon: 1 } } }),
    ).toThrow(/MFA_ADDRESS_LOCATIONS/);
  });

  it("places an address by the first range that holds it", () => {
    const assess = signInRiskAssessor(RISK);
    expect(assess({ address: LONDON, at: 5 }, undefined)).toEqual({
      signals: { newDevice: false, highRiskAddress: false, impossibleTravel: false },
      place: { at: 5, where: { lat: 51.47, lon: -0.45 } },
    });
    expect(assess({ address: "garbage", at: 5 }, undefined).place).toBeUndefined();
  });
});
