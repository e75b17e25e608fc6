/**
 * Passkeys in a real browser (spec 5.1): Chromium's virtual authenticator (CDP WebAuthn domain)
 * stands in for the operator's device. An ADMIN enrols a passkey on the console's Security page,
 * logs out, and signs in again with password + passkey on the identity provider's second-factor
 * screen.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserForTests, checkScreen, launchBrowser, type TestBrowser } from "../support/browser.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { demoUser, signIn, submitPassword } from "./browser-console-fixture.js";

const ZX = "urn:airline:ZX";

if (browserForTests("passkeys (WebAuthn)")) {
  describe("passkeys: enrolment in the console, then sign-in with password + passkey", () => {
    let p: TestPlatform;
    let browser: TestBrowser;
    beforeAll(async () => {
      [p, browser] = await Promise.all([startTestPlatform(), launchBrowser()]);
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
    });

    it("enrols a passkey for an ADMIN and then signs the ADMIN in with it", async () => {
      const context = await browser.context();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      // First sign-in: password + one-time code (no passkey yet).
      await signIn(p, page, "admin@zx.demo", "/console/security");
      await page.getByRole("heading", { name: "Security" }).waitFor();
      await page.getByText("No passkey enrolled yet.").waitFor();
      await checkScreen(page, "console-security");

      await page.getByLabel("Passkey name").fill("Test laptop");
      await page.getByRole("button", { name: "Enrol a passkey" }).click();
      await page.getByRole("rowheader", { name: "Test laptop" }).waitFor();
      await page.getByText('Passkey "Test laptop" enrolled').waitFor();
      await checkScreen(page, "console-security-enrolled");
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(credentials).toHaveLength(1);
      const enrolments = await p.platform.audit.query({ tenant: ZX, action: "passkey.enrol", limit: 10 });
      expect(enrolments.items).toEqual([
        expect.objectContaining({
          actorUrn: "urn:user:zx-admin",
          entityUrn: "urn:user:zx-admin",
          outcome: { status: 201 },
        }),
      ]);

      await page.getByRole("button", { name: "Log out" }).click();
      await page.getByRole("button", { name: "Sign in" }).waitFor();

      // Second sign-in: the password, then the passkey the second-factor screen now offers.
      const admin = demoUser(p, "admin@zx.demo");
      await page.getByRole("button", { name: "Sign in" }).click();
      await submitPassword(page, admin.username, admin.password);
      await page.getByRole("heading", { name: "Second factor" }).waitFor();
      await page.getByRole("button", { name: "Sign in with a passkey" }).waitFor();
      await checkScreen(page, "login-second-factor-passkey");
      const tokenResponse = page.waitForResponse(
        (r) => r.url().endsWith("/auth/oauth/token") && r.request().method() === "POST",
      );
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.getByRole("button", { name: "Log out" }).waitFor();
      const { access_token } = (await (await tokenResponse).json()) as { access_token: string };
      // The token shows the passkey (RFC 8176 hwk), which the API accepts for ADMIN.
      expect(decodeJwt(access_token).amr).toEqual(["pwd", "hwk"]);

      await page.goto(`${p.base}/console/security`);
      await page.getByRole("rowheader", { name: "Test laptop" }).waitFor();
      const row = page.getByRole("row", { name: /Test laptop/ });
      await expect.poll(async () => (await row.textContent()) ?? "").not.toMatch(/never/);

      // Removal is audited too, and leaves nothing enrolled.
      await page.getByRole("button", { name: "Remove Test laptop" }).click();
      await page.getByText("No passkey enrolled yet.").waitFor();
      const removals = await p.platform.audit.query({ tenant: ZX, action: "passkey.remove", limit: 10 });
      expect(removals.items).toHaveLength(1);
    }, 120_000);

    it("shows the identity provider's sign-in screen accessibly", async () => {
      const page = await (await browser.context()).newPage();
      await page.goto(`${p.base}/console/`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByLabel("Password").waitFor();
      await checkScreen(page, "login-password");
    }, 60_000);
  });
}
