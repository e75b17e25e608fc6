/**
 * The passenger app (services/passenger-app) in Chromium, on its airline's own passenger host
 * (`zx.localhost`: Chromium sends every `*.localhost` name to the loopback address, and the
 * passenger host reads the tenant from the host name, services/passenger-api/tenant-hosts.ts):
 * PNR login solving the real ALTCHA challenge, the offer of a booked case, accept; the magic link,
 * whose token leaves the address; decline; the app in Spanish; the voucher with the service gone.
 * Every screen gets axe-core's check and a 360x740 screenshot (test/support/browser.ts).
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PassengerIdentity } from "../../src/passenger-identity/passenger-identity.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { browserForTests, checkScreen, launchBrowser, type TestBrowser } from "../support/browser.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { signIn, subCaseRow } from "./browser-console-fixture.js";
import { declaration, json, ZX } from "./cases-fixtures.js";

const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
/** Proof of work takes a few seconds on a loaded test machine. */
const BROWSER_TEST_MS = 90_000;

if (browserForTests("passenger app in the browser")) {
  let t: TestPlatform;
  let browser: TestBrowser;
  let supervisor: string;
  /** The airline's own passenger host: `http://zx.localhost:<passenger port>`. */
  let host: string;
  let englishCase: string;
  let spanishCase: string;
  let closed = false;

  const enc = encodeURIComponent;

  async function openCase(body: unknown): Promise<string> {
    const response = await t.call("POST", "/v1/cases", supervisor, body);
    expect(response.status).toBe(201);
    return (await json(response)).urn as string;
  }

  /** Until every group of the case is offered its booked room (the compensation saga). */
  async function offersReady(caseUrn: string, groups: number): Promise<void> {
    for (let tries = 0; ; tries++) {
      const response = await t.call("GET", `/v1/orchestration/cases/${enc(caseUrn)}/progress`, supervisor);
      const progress = await json(response);
      const waiting = (progress.subCases ?? []).filter((s: { state?: string; status?: string }) =>
        [s.state, s.status].includes("OFFER_READY"),
      );
      if (waiting.length === groups) return;
      if (tries > 300) throw new Error(`no offers within 30 s: ${JSON.stringify(progress)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function phone(locale = "en-US"): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.context({ ...PHONE, locale });
    return { context, page: await context.newPage() };
  }

  /** Booking reference, last name, the ALTCHA widget solved in the page's workers, log in. */
  async function logIn(
    page: Page,
    pnr: string,
    lastName: string,
    labels = { pnr: "Booking reference", lastName: "Last name", logIn: "Log in" },
  ) {
    await page.getByLabel(labels.pnr).fill(pnr);
    await page.getByLabel(labels.lastName).fill(lastName);
    // The widget solves once the form has focus; its checkbox is checked when it is done.
    await expect
      .poll(() => page.locator("altcha-widget input[type=checkbox]").isChecked(), { timeout: 60_000 })
      .toBe(true);
    await page.getByRole("button", { name: labels.logIn }).click();
  }

  beforeAll(async () => {
    t = await startTestPlatform();
    browser = await launchBrowser();
    supervisor = await t.operatorToken("supervisor@zx.demo");
    host = t.passengerBase.replace("//localhost", "//zx.localhost");
    englishCase = await openCase(declaration("evt-browser-passenger-en"));
    spanishCase = await openCase(
      declaration("evt-browser-passenger-es", {
        passengerGroups: [
          {
            id: "ESP456",
            pnr: "ESP456",
            passengers: [
              {
                id: "p9",
                firstName: "Lucía",
                lastName: "García",
                tier: "ECONOMY",
                contact: { email: "lucia@example.com", language: "es-ES" },
              },
            ],
          },
        ],
      }),
    );
    await offersReady(englishCase, 2);
    await offersReady(spanishCase, 1);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (!closed) await t?.close();
  });

  describe("the passenger app in Chromium", () => {
    let accepted: Page;

    it(
      "logs a passenger in with booking reference, last name and the captcha, shows the offer, and accepts it; the operator's open case page shows it live",
      async () => {
        // An operator watches the case in the console (spec 6.2): the answer must reach that page
        // over the live channel, with no reload.
        const operatorPage = await (await browser.context()).newPage();
        await signIn(t, operatorPage, "supervisor@zx.demo", `/console/cases/${enc(englishCase)}`);
        const operatorRow = subCaseRow(operatorPage, "ABC123");
        await operatorRow.getByText("Offer ready").waitFor();
        await operatorPage.getByText("Live", { exact: true }).waitFor();
        let operatorNavigations = 0;
        operatorPage.on("framenavigated", (frame) => {
          if (frame === operatorPage.mainFrame()) operatorNavigations++;
        });

        const { page } = await phone();
        await page.goto(`${host}/`);
        await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("en");
        await page.getByRole("heading", { name: "Find your hotel" }).waitFor();
        await checkScreen(page, "passenger-login");

        // A wrong last name: the service's problem is shown, and the next attempt gets a fresh challenge.
        await logIn(page, "ABC123", "Nobody");
        await page.getByRole("alert").filter({ hasText: /./ }).first().waitFor();
        expect(await page.getByRole("alert").first().textContent()).toMatch(/\S/);
        await checkScreen(page, "passenger-login-problem");

        await logIn(page, "ABC123", "Rivera");
        await page.getByRole("button", { name: "Accept this hotel" }).waitFor();
        await expect.poll(() => page.getByRole("img", { name: "Voucher QR code" }).isVisible()).toBe(true);
        expect(await page.getByText("Flight ZX100, JFK to LHR").isVisible()).toBe(true);
        const map = await page.getByRole("link", { name: /OpenStreetMap/ }).getAttribute("href");
        expect(map).toMatch(/^https:\/\/www\.openstreetmap\.org\/\?mlat=-?\d+\.\d+&mlon=-?\d+\.\d+#map=17\//);
        await checkScreen(page, "passenger-offer");

        await page.getByRole("button", { name: "Accept this hotel" }).click();
        await page.getByText("You accepted this hotel.").waitFor();
        await page.getByRole("button", { name: "Check in" }).waitFor();
        await checkScreen(page, "passenger-offer-accepted");

        // The operators see the answer: the sub-case is RESOLVED.
        const subCase = await t.call(
          "GET",
          `/v1/subcases/${enc(subCaseUrnFor(englishCase, "ABC123"))}`,
          supervisor,
        );
        expect(await json(subCase)).toMatchObject({ status: "RESOLVED" });
        await operatorRow.getByText("Resolved").waitFor();
        expect(operatorNavigations).toBe(0);
        await operatorPage.close();
        accepted = page;
      },
      BROWSER_TEST_MS,
    );

    it(
      "reports a problem, length-limited, to the operators' review queue",
      async () => {
        const page = accepted;
        const text = page.getByLabel("Describe the problem");
        expect(await text.getAttribute("maxlength")).toBe("2000");
        await text.fill("The shuttle driver <b>never</b> came.");
        await page.getByRole("button", { name: "Send the report" }).click();
        await page.getByText("Thank you. Your airline's team will look at it.").waitFor();
        const queue = await json(await t.call("GET", "/v1/booking/manual-review", supervisor));
        expect(JSON.stringify(queue)).toContain("The shuttle driver <b>never</b> came.");
      },
      BROWSER_TEST_MS,
    );

    it(
      "shows the meal card's balance and opens the card issuer's own page for its number",
      async () => {
        const page = accepted;
        await page.getByText(/^Balance: \$\d/).waitFor();
        await page.getByRole("button", { name: "Show my card number" }).click();
        const link = page.getByRole("link", { name: "Open the card issuer's page (new window)" });
        const href = await link.getAttribute("href");
        expect(href).toMatch(/^https?:\/\//);
        const [issuerPage] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
        await issuerPage.waitForLoadState();
        expect(issuerPage.url()).toBe(href);
        await issuerPage.close();
      },
      BROWSER_TEST_MS,
    );

    it(
      "updates live over the event stream: a message the operators send appears without a reload",
      async () => {
        const page = accepted;
        const messages = page.getByRole("region", { name: "Messages sent to you" }).getByRole("listitem");
        await expect.poll(() => messages.count()).toBeGreaterThan(0);
        const before = await messages.count();
        const sent = await t.call("POST", `/v1/notifications/${enc(englishCase)}/send`, supervisor, {
          groupIds: ["ABC123"],
          template: "voucher",
        });
        expect(sent.status).toBeLessThan(300);
        // No poll reloads the messages: only the stream's notification.dispatched does.
        await expect.poll(() => messages.count(), { timeout: 15_000 }).toBe(before + 1);
      },
      BROWSER_TEST_MS,
    );

    it(
      "checks the passenger in at the hotel",
      async () => {
        const page = accepted;
        await page.getByRole("button", { name: "Check in" }).click();
        await page.getByText("You are checked in.").waitFor();
        await checkScreen(page, "passenger-checked-in");
      },
      BROWSER_TEST_MS,
    );

    it(
      "opens a magic link: the token leaves the address, the session is a cookie, the offer is declined",
      async () => {
        const identity = t.platform.container.resolve<PassengerIdentity>(TOKENS.passengers);
        const link = await identity.magicLinks.issueMagicLink({
          tenant: ZX,
          caseUrn: englishCase,
          groupId: "XYZ789",
        });
        const { context, page } = await phone();
        const addresses: string[] = [];
        page.on("framenavigated", (frame) => {
          if (frame === page.mainFrame()) addresses.push(frame.url());
        });
        // The link points at the airline's own passenger host, as the notification carries it.
        expect(link.url).toBe(`${host}/?token=${link.token}`);
        await page.goto(link.url);
        await page.getByRole("button", { name: "Decline this hotel" }).waitFor();
        expect(page.url()).toBe(`${host}/`);
        expect(await page.evaluate(() => location.search)).toBe("");
        const cookies = await context.cookies(host);
        expect(cookies.find((c) => c.name === "passenger_session")).toMatchObject({
          httpOnly: true,
          sameSite: "Strict",
        });
        expect(await page.evaluate(() => document.cookie)).not.toContain("passenger_session");
        await checkScreen(page, "passenger-magic-link-offer");

        await page.getByRole("button", { name: "Decline this hotel" }).click();
        await page
          .getByLabel("Why does this hotel not suit you?")
          .fill("I will stay with family in the city");
        await checkScreen(page, "passenger-decline-reason");
        await page.getByRole("button", { name: "Send my decline" }).click();
        await page.getByText("You declined this hotel.", { exact: false }).waitFor();
        await checkScreen(page, "passenger-offer-declined");

        // The link is spent: opened again on another phone, it is the login screen with the problem.
        const { page: again } = await phone();
        await again.goto(`${host}/?token=${link.token}`);
        expect(again.url()).toBe(`${host}/`);
        await again.getByRole("alert").first().waitFor();
        // The page was opened with the token and left it at once (replaceState: no entry keeps it).
        expect(addresses[0]).toContain("token=");
        expect(addresses.at(-1)).toBe(`${host}/`);
      },
      BROWSER_TEST_MS,
    );

    it(
      "speaks the passenger's language: Spanish from the manifest",
      async () => {
        const { page } = await phone("en-US");
        await page.goto(`${host}/`);
        await logIn(page, "ESP456", "Garcia");
        await page.getByRole("button", { name: "Aceptar este hotel" }).waitFor();
        expect(await page.locator("html").getAttribute("lang")).toBe("es");
        expect(await page.title()).toBe("Su estancia");
        await expect.poll(() => page.getByRole("img", { name: "Código QR del bono" }).isVisible()).toBe(true);
        await checkScreen(page, "passenger-offer-es");
      },
      BROWSER_TEST_MS,
    );

    it(
      "installs as an app and keeps the accepted voucher when the service cannot be reached",
      async () => {
        const page = accepted;
        // The page names its manifest (served and checked in front-ends-served.test.ts).
        expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/manifest.webmanifest");

        // Once the worker controls the page, a reload goes through it and keeps what it reads.
        await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
        await page.reload();
        await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
        await page.getByText("You accepted this hotel.").waitFor();
        await expect.poll(() => page.getByRole("img", { name: "Voucher QR code" }).isVisible()).toBe(true);

        // Offline first: the page's event stream then cannot reconnect to the closing service over a
        // kept-alive connection, which would hold the close open.
        await page.context().setOffline(true);
        closed = true;
        await t.close();
        await page.reload();
        await page.getByText("You accepted this hotel.").waitFor();
        await expect.poll(() => page.getByRole("img", { name: "Voucher QR code" }).isVisible()).toBe(true);
        await page.getByRole("status").filter({ hasText: "You are offline" }).waitFor();
        await checkScreen(page, "passenger-offline-voucher");
      },
      BROWSER_TEST_MS,
    );
  });
}
