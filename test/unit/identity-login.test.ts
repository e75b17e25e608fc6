import { describe, expect, it } from "vitest";
import { createDemoDirectory } from "../../src/demo/demo-directory.js";
import { refreshTokenTtl } from "../../src/identity/refresh-token-lifetime.js";
import { checkOperatorLogin } from "../../src/identity/operator-login.js";
import { operatorSignIn } from "../support/operator-sign-in.js";
import { totpCode, verifyTotp } from "../../src/identity/totp.js";
import { ManualClock } from "../../src/runtime/clock.js";

const ADDRESS = "192.0.2.10";
const ADMIN_SECRET = "UZ4NWA6NSM4SJYS2HAE4JOO4CSR5VOWS";
const DAY = 24 * 60 * 60;

describe("operator login decision", () => {
  const clock = new ManualClock("2026-05-04T10:00:00Z");
  const signIn = operatorSignIn(createDemoDirectory(clock), clock);

  it("admits an AIRPORT_OPERATOR on password alone, with amr pwd", async () => {
    const outcome = await checkOperatorLogin(signIn, {
      address: ADDRESS,
      username: "operator@zx.demo",
      password: "demo-zx-operator",
    });
    expect(outcome).toMatchObject({ ok: true, amr: ["pwd"], user: { id: "zx-operator" } });
  });

  it("requires a TOTP code from ADMIN, OPS_SUPERVISOR and FINANCE_AUDIT", async () => {
    for (const [username, password] of [
      ["admin@zx.demo", "demo-zx-admin"],
      ["supervisor@vq.demo", "demo-vq-supervisor"],
      ["finance@zx.demo", "demo-zx-finance"],
    ] as const) {
      const outcome = await checkOperatorLogin(signIn, {
        address: ADDRESS,
        username,
        password,
      });
      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && outcome.reason).toMatch(/multi-factor authentication is required/);
    }
  });

  it("adds otp to amr for a valid code and refuses a wrong one", async () => {
    const code = totpCode(ADMIN_SECRET, clock.now());
    const good = await checkOperatorLogin(signIn, {
      address: ADDRESS,
      username: "admin@zx.demo",
      password: "demo-zx-admin",
      otp: code,
    });
    expect(good).toMatchObject({ ok: true, amr: ["pwd", "otp"] });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const bad = await checkOperatorLogin(signIn, {
      address: ADDRESS,
      username: "admin@zx.demo",
      password: "demo-zx-admin",
      otp: wrong,
    });
    expect(bad).toEqual({ ok: false, reason: "invalid one-time code" });
  });

  it("refuses a user with no organization even with the right password", async () => {
    const outcome = await checkOperatorLogin(signIn, {
      address: ADDRESS,
      username: "unaffiliated@demo",
      password: "demo-unaffiliated",
    });
    expect(outcome).toEqual({ ok: false, reason: "the user is not a member of any organization" });
  });

  it("refuses a wrong password without saying whether the user exists", async () => {
    const wrongPassword = await checkOperatorLogin(signIn, {
      address: ADDRESS,
      username: "operator@zx.demo",
      password: "nope",
    });
    const noSuchUser = await checkOperatorLogin(signIn, {
      address: ADDRESS,
      username: "nobody@zx.demo",
      password: "nope",
    });
    expect(wrongPassword).toEqual({ ok: false, reason: "invalid username or password" });
    expect(noSuchUser).toEqual(wrongPassword);
  });
});

describe("TOTP (RFC 6238)", () => {
  it("accepts the code of the neighbouring 30-second period and no further", () => {
    const at = Date.parse("2026-05-04T10:00:15Z");
    const code = totpCode(ADMIN_SECRET, at);
    expect(verifyTotp(ADMIN_SECRET, code, at + 30_000)).toBe(true);
    expect(verifyTotp(ADMIN_SECRET, code, at + 90_000)).toBe(false);
    expect(verifyTotp(ADMIN_SECRET, "12345", at)).toBe(false);
  });

  it("matches the RFC 6238 SHA-1 test vector", () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s, 8 digits 94287082 -> 6 digits 287082.
    const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(totpCode(rfcSecret, 59_000)).toBe("287082");
  });
});

describe("refresh-token lifetime", () => {
  const issued = 1_000_000;

  it("gives 7 days of inactivity after each rotation", () => {
    expect(refreshTokenTtl(issued, issued)).toBe(7 * DAY);
    expect(refreshTokenTtl(issued, issued + 10 * DAY)).toBe(7 * DAY);
  });

  it("never reaches past 30 days from the family's first token", () => {
    expect(refreshTokenTtl(issued, issued + 25 * DAY)).toBe(5 * DAY);
    expect(refreshTokenTtl(issued, issued + 30 * DAY - 60)).toBe(60);
  });
});
