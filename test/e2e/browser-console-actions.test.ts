import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserForTests, checkScreen, launchBrowser, type TestBrowser } from "../support/browser.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { requestReviewItem } from "../support/review-case.js";
import { json } from "../support/responses.js";
import { pushCase, signIn, subCaseRow } from "./browser-console-fixture.js";
import { itemWithRecommendations } from "./exception-agent-fixture.js";

const SUPERVISOR = "urn:user:zx-supervisor";
const enc = encodeURIComponent;

/**
 * The console's action screens in Chromium (spec 4.1, 4.2, 7): every action goes through the public
 * API, so what the browser did is checked in the API's own reads and audit trail.
 */
if (browserForTests("operator console actions")) {
  describe("operator console: actions", () => {
    let p: TestPlatform;
    let browser: TestBrowser;
    const tokens: Record<string, string> = {};
    const call = (method: string, path: string, who: string, body?: unknown) =>
      p.call(method, path, tokens[who]!, body);

    beforeAll(async () => {
      [p, browser] = await Promise.all([
        startTestPlatform({ env: { RATE_LIMIT_SCALE: "20" } }),
        launchBrowser(),
      ]);
      for (const user of ["supervisor@zx.demo", "admin@zx.demo"]) tokens[user] = await p.operatorToken(user);
    });
    afterAll(async () => {
      await browser?.close();
      await p?.close();
    });

    const signedIn = async (username: string, path?: string): Promise<Page> => {
      const page = await (await browser.context()).newPage();
      await signIn(p, page, username, path);
      return page;
    };

    it("a supervisor resolves a review item from the exception agent's proposal", async () => {
      const { itemUrn, caseUrn } = await itemWithRecommendations(p, tokens["supervisor@zx.demo"]!);
      const page = await signedIn("supervisor@zx.demo");
      await page.getByRole("link", { name: "Manual review" }).click();
      await page.getByRole("heading", { name: "Manual review" }).waitFor();
      await page.getByLabel("Category").selectOption("PARTIAL_FULFILLMENT");
      const open = page.getByRole("button", { name: `Open PARTIAL_FULFILLMENT item of ${caseUrn}` });
      await open.waitFor();
      await checkScreen(page, "console-review-queue");

      await open.click();
      const apply = page.getByRole("button", { name: "Apply proposal 2: relax maxDistanceKm to 35" });
      await apply.waitFor();
      await page.getByRole("button", { name: /^Apply proposal 1: rebook on urn:hotel:spare/ }).waitFor();
      await checkScreen(page, "console-review-item");

      await apply.click();
      await page.getByText("Apply proposal 2: done").waitFor();
      await page.getByText(/"maxDistanceKm":35/).waitFor();
      await page.getByLabel("Reason", { exact: true }).fill("relaxed to 35 km as the agent proposed");
      await page.getByLabel("Resolution").fill("POLICY_RELAXED");
      await page.getByRole("button", { name: "Resolve" }).click();
      await page.getByText(/POLICY_RELAXED by urn:user:zx-supervisor/).waitFor();

      const item = await json(
        await call("GET", `/v1/booking/manual-review/${enc(itemUrn)}`, "supervisor@zx.demo"),
        200,
      );
      expect(item).toMatchObject({
        state: "RESOLVED",
        resolution: { resolution: "POLICY_RELAXED", by: SUPERVISOR },
        relaxations: [expect.objectContaining({ fields: { maxDistanceKm: 35 }, by: SUPERVISOR })],
      });
      const triage = await json(
        await call("POST", "/v1/agent/triage", "supervisor@zx.demo", { reviewItemUrn: itemUrn }),
        200,
      );
      expect(triage.triages[0].proposals[1]).toMatchObject({
        tool: "relax",
        state: "EXECUTED",
        approval: { by: SUPERVISOR },
      });
      const trail = p.platform.audit.query({ tenant: "urn:airline:ZX", entityUrn: itemUrn, limit: 100 });
      expect((await trail).items.map((e) => [e.action, e.actorUrn])).toEqual(
        expect.arrayContaining([
          ["review-item.resolve", SUPERVISOR],
          ["review-item.relaxed", SUPERVISOR],
        ]),
      );
    }, 120_000);

    it("two operators: the second one's lock of the same sub-case shows who holds it and for how long", async () => {
      const caseUrn = await pushCase(p, `CONSOLE-LOCK-${Date.now()}`);
      const path = `/console/cases/${enc(caseUrn)}`;
      const [first, second] = await Promise.all([
        signedIn("operator@zx.demo", path),
        signedIn("supervisor@zx.demo", path),
      ]);
      const row = (page: Page) => subCaseRow(page, "RTY456");
      await row(first).getByRole("button", { name: /^Lock/ }).click();
      await row(first).getByText("Locked by you").waitFor();

      await row(second).getByRole("button", { name: /^Lock/ }).click();
      const conflict = second.getByRole("alert").filter({ hasText: "Locked by urn:user:zx-operator" });
      await conflict.waitFor();
      expect(await conflict.textContent()).toMatch(/for \d+ more seconds/);
      await checkScreen(second, "console-lock-conflict");

      // The holder's compensation carries its fencing token; the other operator's is refused and shown.
      const detail = await json(await call("GET", `/v1/cases/${enc(caseUrn)}`, "supervisor@zx.demo"), 200);
      const group = detail.passengerGroups.find((g: { pnr: string }) => g.pnr === "RTY456");
      await second.getByLabel("Group to compensate").selectOption(group.subCaseUrn);
      await second.getByRole("button", { name: "Compensate" }).click();
      await second.getByRole("alert").filter({ hasText: /^409/ }).waitFor();
    }, 120_000);

    it("a policy edit shows its changes before they are sent, carries them over another change (409), then activates", async () => {
      const page = await signedIn("admin@zx.demo");
      await page.getByRole("link", { name: "Policies" }).click();
      await page.getByRole("heading", { name: "Policies", exact: true }).waitFor();
      const name = `Console crew policy ${Date.now()}`;
      await page.getByLabel("Policy name").fill(name);
      await page.getByLabel("Airport code (empty: every airport)").fill("BOS");
      await page.getByLabel("CREW").check();
      await page.getByLabel("Minimum stars").first().fill("3");
      await page.getByRole("button", { name: "Create policy" }).click();
      const editor = page.locator("article.policy-editor");
      await editor.getByRole("heading", { name: new RegExp(name) }).waitFor();
      await editor.getByText("DRAFT").first().waitFor();

      await editor.getByLabel("Minimum stars").fill("4");
      await editor.getByLabel("Maximum distance (km)").fill("12");
      const diff = editor.getByRole("table", { name: "Changes this patch makes" });
      await diff.getByRole("rowheader", { name: "constraints.minStars" }).waitFor();
      expect(await diff.getByRole("row").allTextContents()).toEqual([
        "FieldBeforeAfter",
        "constraints.minStars34",
        "constraints.maxDistanceKm(none)12",
      ]);
      await checkScreen(page, "console-policy-diff");

      // Another supervisor renames the policy meanwhile: the patch names the version it was made on.
      const urn = (await editor.locator("dd code").first().textContent())!;
      await json(
        await call("POST", `/v1/policies/${enc(urn)}/patch`, "supervisor@zx.demo", {
          name: `${name} (crews)`,
        }),
        200,
      );
      await editor.getByLabel("Reason for the change").fill("four stars for crews");
      await editor.getByRole("button", { name: "Send patch" }).click();
      await editor.getByRole("alert").filter({ hasText: "version-mismatch" }).waitFor();
      await editor.getByRole("button", { name: "Read the new version, keeping my edits" }).click();
      await editor.getByText(/^Change the rules \(version 2\)/).waitFor();
      // The form takes the new version's fields in a render after the heading: wait for the diff.
      await expect
        .poll(() => diff.getByRole("row").allTextContents())
        .toEqual(["FieldBeforeAfter", "constraints.minStars34", "constraints.maxDistanceKm(none)12"]);
      await editor.getByLabel("Reason for the change").fill("four stars for crews");
      await editor.getByRole("button", { name: "Send patch" }).click();
      await editor.getByText("constraints.minStars: 3 → 4; constraints.maxDistanceKm: (none) → 12").waitFor();

      await editor.getByRole("button", { name: "Activate policy" }).click();
      await editor.getByRole("button", { name: "Archive policy" }).waitFor();
      await checkScreen(page, "console-policies");
      const policy = await json(await call("GET", `/v1/policies/${enc(urn)}`, "admin@zx.demo"), 200);
      expect(policy).toMatchObject({
        name: `${name} (crews)`,
        status: "ACTIVE",
        version: 3,
        constraints: expect.objectContaining({ minStars: 4, maxDistanceKm: 12 }),
      });

      await page.getByLabel("Description").fill("4 stars within 10 km of BOS, breakfast");
      await page.getByRole("button", { name: "Synthesize draft" }).click();
      await editor.getByText(/Drafted from a description/).waitFor();
    }, 120_000);

    it("on a case: demand decided, a transfer retimed, the case closed and reopened", async () => {
      const caseUrn = await pushCase(p, `CONSOLE-CASE-${Date.now()}`);
      const page = await signedIn("admin@zx.demo", `/console/cases/${enc(caseUrn)}`);
      const actions = page.locator("section.case-actions");
      await actions.getByRole("heading", { name: "Actions" }).waitFor();

      // More rooms than the demo policy approves by itself: it waits for a supervisor's decision.
      await actions.getByLabel("Demand type").selectOption("INCREMENTAL");
      await actions.getByLabel("Rooms requested").fill("301");
      await actions.getByRole("button", { name: "Create demand" }).click();
      await actions.getByRole("button", { name: "Reject demand" }).waitFor();
      await actions.getByLabel("Reason for the decision").fill("the hotels are full tonight");
      await actions.getByRole("button", { name: "Reject demand" }).click();
      await actions.getByText("Reject demand: done").waitFor();
      const trail = await json(
        await call("GET", `/v1/audit/case/${enc(caseUrn)}?limit=200`, "admin@zx.demo"),
        200,
      );
      expect(trail.items.map((e: { action: string }) => e.action)).toContain("demand.request");

      // Rooms are booked by themselves within a second of the push; the transfers follow them.
      await actions.getByLabel("Reservation").waitFor();
      await actions.getByLabel("Direction AIRPORT_TO_HOTEL").check();
      await actions.getByRole("button", { name: "Request transfers" }).click();
      await actions.getByRole("table", { name: "Transport segments" }).waitFor();
      await actions.getByLabel("Reason for the change").fill("the flight arrives late at the gate");
      await actions.getByLabel("New pickup time").fill("2026-11-21T23:45");
      await actions.getByRole("button", { name: "Retime" }).click();
      await actions.getByText("Retime: done").waitFor();
      await checkScreen(page, "console-case-actions");

      // The page's contents stay in view and take the operator to a part below the groups' table.
      const contents = page.getByRole("navigation", { name: "On this page" });
      await contents.getByRole("link", { name: /^Reservations \(\d+\)$/ }).click();
      expect(new URL(page.url()).hash).toBe("#reservations");
      await expect
        .poll(() =>
          page
            .getByRole("heading", { name: "Reservations and vouchers" })
            .evaluate((h) => h.getBoundingClientRect().top),
        )
        .toBeLessThan(200);
      expect(await contents.isVisible()).toBe(true);

      await actions.getByLabel("Reason for closing").fill("every group is looked after");
      await actions.getByRole("button", { name: "Close case" }).click();
      await actions.getByRole("button", { name: "Reopen case" }).click();
      await actions.getByRole("button", { name: "Close case" }).waitFor();
      const after = await json(
        await call("GET", `/v1/audit/case/${enc(caseUrn)}?limit=200`, "admin@zx.demo"),
        200,
      );
      expect(after.items.map((e: { action: string }) => e.action)).toEqual(
        expect.arrayContaining(["case.close", "case.reopen"]),
      );
    }, 120_000);

    it("hides what a role cannot do, and shows the API's refusal", async () => {
      const bosCase = await pushCase(p, `CONSOLE-ROLES-${Date.now()}`);
      const itemUrn = await requestReviewItem(p, bosCase, "PAYMENT_FAILED", Date.now());
      await expect
        .poll(
          async () =>
            (await call("GET", `/v1/booking/manual-review/${enc(itemUrn)}`, "supervisor@zx.demo")).status,
        )
        .toBe(200);

      const operator = await signedIn("operator@zx.demo", "/console/policies");
      await operator.getByRole("heading", { name: "Policies", exact: true }).waitFor();
      await operator.getByRole("table", { name: "Policies of the airline" }).waitFor();
      expect(await operator.getByRole("button", { name: "Create policy" }).count()).toBe(0);
      await operator.getByRole("link", { name: "Manual review" }).click();
      await operator.getByText("The queue lists for supervisors").waitFor();

      const scoped = await signedIn("operator.jfk@zx.demo", `/console/review?item=${enc(itemUrn)}`);
      await scoped.getByRole("alert").filter({ hasText: /^403/ }).waitFor();
      await checkScreen(scoped, "console-review-refused");
    }, 120_000);
  });
}
