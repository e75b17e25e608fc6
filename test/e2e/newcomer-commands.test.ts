import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoTokenCommands } from "../../src/demo/demo-token-commands.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json } from "./cases-fixtures.js";

const run = promisify(execFile);

/** What a newcomer pastes and runs, run the same way: in a shell, in the project folder, against a started service. */
let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
});
afterAll(async () => {
  await t?.close();
});

function passengerLogin(...args: string[]) {
  return run(process.execPath, ["--import", "tsx", "scripts/passenger-login.ts", ...args], {
    env: { ...process.env, PASSENGER_BASE_URL: t.passengerBase },
  });
}

describe("demo:credentials -- --commands", () => {
  it("gives each airline its own passenger host", () => {
    expect(t.credentials.tenants.map((tenant) => new URL(tenant.passengerBaseUrl).hostname)).toEqual([
      "zx.localhost",
      "vq.localhost",
    ]);
  });

  it("puts working operator, supervisor (TOTP by the otpauth one-liner), admin and partner tokens in shell variables", async () => {
    const zx = t.credentials.tenants.find((tenant) => tenant.airlineUrn === "urn:airline:ZX")!;
    const commands = demoTokenCommands(t.credentials, zx);
    expect(commands).not.toContain("oathtool");
    const tokenCommands = commands.slice(0, commands.indexOf(`\ncurl -s ${t.base}/version`));
    const { stdout } = await run(
      "bash",
      ["-ec", `${tokenCommands}\nprintf '%s\\n' "$TOKEN" "$SUPERVISOR_TOKEN" "$ADMIN_TOKEN" "$PT"`],
      { cwd: process.cwd() },
    );
    const [operator, supervisor, admin, partner] = stdout.trim().split("\n");
    for (const token of [operator, supervisor, admin, partner]) {
      expect(token).toMatch(/^ey/);
      expect((await t.call("GET", "/version", token)).status).toBe(200);
    }
    expect((await t.call("GET", "/v1/booking/manual-review?state=OPEN", supervisor)).status).toBe(200);
    expect((await t.call("GET", "/v1/booking/manual-review?state=OPEN", operator)).status).toBe(403);
    expect((await t.call("GET", "/v1/admin/revocations", admin)).status).toBe(200);
  }, 60_000);
});

describe("npm run passenger:login", () => {
  it("solves the captcha as a browser would and prints a session token for the passenger's own case", async () => {
    const supervisor = await t.operatorToken("supervisor@zx.demo");
    const opened = await t.call("POST", "/v1/cases", supervisor, declaration("evt-passenger-login"));
    expect(opened.status).toBe(201);
    const caseUrn = (await json(opened)).urn as string;

    const { stdout, stderr } = await passengerLogin("ABC123", "Rivera", "ZX");
    const token = stdout.trim();
    expect(stderr).toContain(caseUrn);
    const me = await fetch(`${t.passengerBase}/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await json(me)).toMatchObject({ caseUrn, group: { pnr: "ABC123" } });
  }, 60_000);

  it("prints the problem and fails when no booking matches", async () => {
    const failed = await passengerLogin("ABC123", "Nobody", "ZX").catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain("pnr-login-failed");
  }, 60_000);
});
