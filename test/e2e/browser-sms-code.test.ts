/**
 * The last-resort second factor (spec 5.1) in a browser: a FINANCE_AUDIT user with neither passkey
 * nor authenticator app gets a one-time code by SMS through the notification port's SMS channel,
 * and an ADMIN with only a phone number is refused on the password screen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  NotificationChannel,
  OutgoingMessage,
} from "../../src/app/notifications/notification-channel.js";
import { startIdentityProvider, type RunningIdentityProvider } from "../integration/identity-fixture.js";
import { SMS_ADMIN, SMS_FINANCE, smsUsersDirectory } from "../support/sms-users.js";
import { browserForTests, checkScreen, launchBrowser, type TestBrowser } from "../support/browser.js";

if (browserForTests("second factor by SMS")) {
  describe("second factor by SMS, the last resort", () => {
    const sent: OutgoingMessage[] = [];
    const smsChannel: NotificationChannel = {
      name: "sms",
      send: async (message) => {
        sent.push(message);
        return { providerMessageId: `sim-${sent.length}` };
      },
    };
    let idp: RunningIdentityProvider;
    let browser: TestBrowser;
    beforeAll(async () => {
      [idp, browser] = await Promise.all([
        startIdentityProvider(undefined, {
          directory: smsUsersDirectory(),
          smsChannel: () => smsChannel,
        }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await idp?.close();
    });

    /** The console's authorization request (PKCE), as far as the identity provider's login page. */
    async function openLoginPage() {
      const page = await (await browser.context()).newPage();
      const authorize = new URL(`${idp.issuer}/auth`);
      authorize.search = new URLSearchParams({
        client_id: "operator-console",
        response_type: "code",
        redirect_uri: `${idp.baseUrl}/console/callback`,
        scope: "openid",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256",
      }).toString();
      await page.goto(authorize.href);
      await page.getByLabel("Password").waitFor();
      return page;
    }

    it("sends a code to the enrolled number and signs in with it, after refusing a wrong one", async () => {
      const page = await openLoginPage();
      await page.getByLabel("Username").fill(SMS_FINANCE.username);
      await page.getByLabel("Password").fill(SMS_FINANCE.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("SMS as the last resort").waitFor();
      await page.getByRole("button", { name: "Send a code by SMS" }).click();
      await page.getByText("A code was sent to •••0101").waitFor();
      await checkScreen(page, "login-second-factor-sms");
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ to: "+15550101", tenant: "urn:airline:ZX" });
      const code = /\d{6}/.exec(sent[0]!.text)![0];

      await page.getByLabel("SMS code").fill(code === "000000" ? "000001" : "000000");
      await page.getByRole("button", { name: "Verify the SMS code" }).click();
      await page.getByRole("alert").getByText("invalid or expired SMS code").waitFor();

      await page.getByLabel("SMS code").fill(code);
      const callback = page.waitForRequest((request) =>
        request.url().startsWith(`${idp.baseUrl}/console/callback`),
      );
      await page.getByRole("button", { name: "Verify the SMS code" }).click();
      expect(new URL((await callback).url()).searchParams.get("code")).toEqual(expect.any(String));
    }, 60_000);

    it("refuses an ADMIN whose only factor is SMS on the password screen, saying why", async () => {
      const page = await openLoginPage();
      await page.getByLabel("Username").fill(SMS_ADMIN.username);
      await page.getByLabel("Password").fill(SMS_ADMIN.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page
        .getByRole("alert")
        .getByText(/SMS is not allowed for ADMIN/)
        .waitFor();
      await checkScreen(page, "login-refused-sms-admin");
      expect(sent.filter((m) => m.text.includes("admin"))).toEqual([]);
    }, 60_000);
  });
}
