import type { Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserForTests, checkScreen, launchBrowser, type TestBrowser } from "../support/browser.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { pushCase, signIn, subCaseRow } from "./browser-console-fixture.js";

/**
 * Two operators on the same case in two browsers (spec 4.1 locks, 6.2 live channel, 7 conflict),
 * and logout in the order of spec 5.1: the lock is released before the refresh token is revoked.
 */
if (browserForTests("operator console locks and logout")) {
  describe("operator console: two operators, one sub-case", () => {
    let p: TestPlatform;
    let browser: TestBrowser;
    let caseUrn: string;
    let supervisorToken: string;
    beforeAll(async () => {
      [p, browser] = await Promise.all([startTestPlatform(), launchBrowser()]);
      caseUrn = await pushCase(p, "CONSOLE-LOCKS-1");
      supervisorToken = await p.operatorToken("admin@zx.demo");
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
    });

    const casePath = () => `/console/cases/${encodeURIComponent(caseUrn)}`;
    const row = subCaseRow;
    const lockOf = async (subCaseUrn: string) => {
      const response = await p.call("GET", `/v1/subcases/${encodeURIComponent(subCaseUrn)}`, supervisorToken);
      const body = (await response.json()) as { lockedBy: string | null };
      if (!("lockedBy" in body)) throw new Error(`no lock in ${response.status} ${JSON.stringify(body)}`);
      return body.lockedBy;
    };

    it("shows one operator's lock live to the other, whose lock attempt gets the 409 conflict; logout releases the lock before revoking the refresh token", async () => {
      const first = await (await browser.context()).newPage();
      const second = await (await browser.context()).newPage();
      await signIn(p, first, "operator@zx.demo", casePath());
      await signIn(p, second, "supervisor@zx.demo", casePath());
      for (const page of [first, second]) {
        await row(page, "QWE123").getByText("Unlocked").waitFor();
        await page.getByText("Live", { exact: true }).waitFor();
      }
      const subCaseUrn = (await row(first, "QWE123").getAttribute("data-sub-case"))!;
      // Role-aware (spec part 4): the audit is the supervisor's to read, not the airport operator's.
      await second.getByRole("heading", { name: "Audit trail" }).waitFor();
      expect(await first.getByRole("heading", { name: "Audit trail" }).count()).toBe(0);
      expect(
        await first.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).count(),
      ).toBe(0);

      await row(first, "QWE123").getByRole("button", { name: "Lock group QWE123" }).click();
      await row(first, "QWE123").getByText("Locked by you").waitFor();
      // The second browser did nothing: the lock reached it over the WebSocket (spec 6.2).
      await row(second, "QWE123").getByText("Locked by urn:user:zx-operator").waitFor();
      await checkScreen(first, "console-case-locked-by-you");

      await row(second, "QWE123").getByRole("button", { name: "Lock group QWE123" }).click();
      const conflict = row(second, "QWE123").getByRole("alert");
      await conflict.waitFor();
      expect(await conflict.textContent()).toMatch(/^Locked by urn:user:zx-operator for \d+ more seconds\.$/);
      await checkScreen(second, "console-case-lock-conflict");

      // Logout (spec 5.1): when the browser asks the identity provider to revoke, the lock is gone already.
      const refreshCookie = (await first.context().cookies()).find((c) => c.name === "operator_refresh")!;
      const order: string[] = [];
      let lockAtRevocation: string | null | undefined;
      let accessToken = "";
      first.on("request", (request: Request) => {
        const auth = request.headers().authorization;
        if (auth?.startsWith("Bearer ")) accessToken = auth.slice(7);
      });
      await first.route("**/v1/auth/logout", async (route) => {
        const response = await route.fetch();
        order.push(`logout answered ${response.status()}`);
        await route.fulfill({ response });
      });
      await first.route("**/auth/oauth/revoke", async (route) => {
        order.push("revocation sent");
        lockAtRevocation = await lockOf(subCaseUrn);
        await route.continue();
      });
      await first.getByRole("button", { name: "Log out" }).click();
      await first.getByRole("button", { name: "Sign in" }).waitFor();
      expect(order).toEqual(["logout answered 204", "revocation sent"]);
      // The server's closing of this window's socket (4001) was this logout, not news to show.
      expect(await first.getByText("You were logged out").count()).toBe(0);
      expect(lockAtRevocation).toBeNull();
      await row(second, "QWE123").getByText("Unlocked").waitFor();

      // Nothing of the session is left that works: the old refresh cookie and the old access token are refused.
      expect((await first.context().cookies()).some((c) => c.name === "operator_refresh")).toBe(false);
      const refresh = await fetch(`${p.base}/auth/oauth/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: `operator_refresh=${refreshCookie.value}`,
        },
        body: new URLSearchParams({ grant_type: "refresh_token", client_id: "operator-console" }),
      });
      expect(refresh.status).toBe(400);
      expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");
      expect((await p.call("GET", `/v1/cases/${encodeURIComponent(caseUrn)}`, accessToken)).status).toBe(401);
      await checkScreen(first, "console-signed-out");

      // A change of the case itself (closed through the API by someone else) shows live too.
      const close = await p.call("POST", `/v1/cases/${encodeURIComponent(caseUrn)}/close`, supervisorToken, {
        reason: "passengers rebooked on other carriers",
      });
      expect(close.status).toBe(200);
      await second.getByRole("definition").getByText("Closed").waitFor();
      await second.getByText("case.close").first().waitFor();
    }, 120_000);
  });
}
