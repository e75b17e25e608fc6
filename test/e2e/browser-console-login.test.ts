import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserForTests, checkScreen, launchBrowser, type TestBrowser } from "../support/browser.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { totpCode } from "../../src/identity/totp.js";
import { demoUser, pushCase, signIn, submitPassword } from "./browser-console-fixture.js";

/** The operator console in Chromium: sign-in, the case a partner pushed, its sub-cases (spec 4.1, 5.1). */
if (browserForTests("operator console sign-in")) {
  describe("operator console: sign-in and a pushed case", () => {
    let p: TestPlatform;
    let browser: TestBrowser;
    let caseUrn: string;
    beforeAll(async () => {
      [p, browser] = await Promise.all([startTestPlatform(), launchBrowser()]);
      caseUrn = await pushCase(p, "CONSOLE-LOGIN-1");
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
    });

    it("signs a supervisor in with the one-time code, shows the pushed case and its sub-cases", async () => {
      const page = await (await browser.context()).newPage();
      await page.goto(`${p.base}/console/`);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await checkScreen(page, "console-sign-in");
      await signIn(p, page, "supervisor@zx.demo");
      expect(new URL(page.url()).pathname).toBe("/console/");
      expect(new URL(page.url()).search).toBe("");
      await page.getByRole("heading", { name: "Dashboard" }).waitFor();
      await page.getByRole("heading", { name: "Cases", exact: true }).waitFor();
      await page.getByRole("link", { name: "ZX200 BOS" }).waitFor();
      await checkScreen(page, "console-dashboard");

      await page.getByRole("link", { name: "Cases", exact: true }).click();
      await page.getByRole("link", { name: "ZX200" }).first().waitFor();
      await checkScreen(page, "console-cases");
      await page.getByRole("link", { name: "ZX200" }).first().click();
      await page.getByRole("heading", { name: /Case ZX200/ }).waitFor();
      await page.getByRole("rowheader", { name: "QWE123" }).first().waitFor();
      await page.getByRole("rowheader", { name: "RTY456" }).first().waitFor();
      expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/console/cases/${caseUrn}`);
      // The pictures: the allocation around the airport, why each hotel won or lost, the saga's steps.
      await page.getByRole("img", { name: /^Allocation around BOS: 1 of \d+ hotels chosen$/ }).waitFor();
      await page.getByRole("table", { name: "Why each hotel won or lost" }).getByText("Selected").waitFor();
      await page
        .getByRole("list", { name: "Saga steps of group QWE123" })
        .getByText("Notify passenger")
        .waitFor();
      await checkScreen(page, "console-case-detail");

      // The access token is in memory only: a reload gets a new one with the httpOnly refresh cookie.
      const cookies = await page.context().cookies();
      const refresh = cookies.find((c) => c.name === "operator_refresh")!;
      expect(refresh).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/auth/oauth/" });
      expect(await page.evaluate(() => document.cookie)).not.toContain("operator_refresh");
      await page.reload();
      await page.getByRole("heading", { name: /Case ZX200/ }).waitFor();
      expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    }, 90_000);

    it("asks a finance auditor for the one-time code on the second screen and refuses a wrong one", async () => {
      const page = await (await browser.context()).newPage();
      const user = demoUser(p, "finance@zx.demo");
      await page.goto(`${p.base}/console/cases`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await submitPassword(page, user.username, user.password);
      await page.getByRole("heading", { name: "Second factor" }).waitFor();
      await checkScreen(page, "console-login-second-factor");
      const wrong = totpCode(user.totpSecret!, Date.now() + 10 * 60_000);
      await page.getByLabel("One-time code").fill(wrong);
      await page.getByRole("button", { name: "Verify the code" }).click();
      await page.getByRole("alert").waitFor();
      await page.getByLabel("One-time code").fill(totpCode(user.totpSecret!, Date.now()));
      await page.getByRole("button", { name: "Verify the code" }).click();
      // Back where the sign-in started, as FINANCE_AUDIT, whose role may not list cases (spec 4.1).
      await page.getByText("Your role may not open this screen.").waitFor();
      expect(new URL(page.url()).pathname).toBe("/console/cases");
      await page.getByText("FINANCE_AUDIT").waitFor();
      const nav = page.getByRole("navigation", { name: "Main" });
      expect(await nav.getByRole("link").allTextContents()).not.toContain("Cases");
      // What the role may read: the audit trail (spec 4.1 audit routes: FINANCE_AUDIT, OPS_SUPERVISOR+).
      await nav.getByRole("link", { name: "Audit" }).click();
      await page.getByLabel("Case URN").fill(caseUrn);
      await page.getByRole("button", { name: "Find entries" }).click();
      await page.getByRole("table", { name: "Audit entries" }).getByText("case.opened").waitFor();
      expect(await page.getByRole("button", { name: /^Lock/ }).count()).toBe(0);
      await checkScreen(page, "console-audit");
    }, 60_000);

    it("ends the session visibly after a refresh-token reuse, without recovering silently (spec 5.1)", async () => {
      const page = await (await browser.context()).newPage();
      await signIn(p, page, "operator@zx.demo", "/console/cases");
      await page.getByRole("link", { name: "ZX200" }).first().waitFor();
      const cookie = (await page.context().cookies()).find((c) => c.name === "operator_refresh")!.value;
      const refresh = () =>
        fetch(`${p.base}/auth/oauth/token`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            cookie: `operator_refresh=${cookie}`,
          },
          body: new URLSearchParams({ grant_type: "refresh_token", client_id: "operator-console" }),
        });
      // Someone else uses the browser's refresh token twice: the identity provider ends the family.
      expect((await refresh()).status).toBe(200);
      expect((await refresh()).status).toBe(400);
      // The console's next call gets 401, its refresh is refused, and it says so instead of carrying on.
      await page.getByRole("link", { name: "Dashboard" }).click();
      await page.getByRole("status").filter({ hasText: "Your session has ended" }).waitFor();
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      expect(await page.getByRole("button", { name: "Log out" }).count()).toBe(0);
      await checkScreen(page, "console-session-ended");
    }, 60_000);
  });
}
