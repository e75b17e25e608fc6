/**
 * Browser tests: Debian's Chromium (apt package `chromium`, installed by .ci/run) driven by
 * playwright-core, with the flags that keep it off a network it cannot reach
 * (../shared/ARCHITECTURE.md, verified facts). A missing Chromium skips the browser suites with
 * a printed reason, except under REQUIRE_BROWSER=1 (CI), where a failing test stands in for them.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Where the browser suites leave their screenshots (one per screen), under the test output. */
export const SCREENSHOTS_FOLDER = join(process.cwd(), "test-output", "screenshots");

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Whether the browser suite `suite` can run here; when not, says why (or fails under REQUIRE_BROWSER=1). */
export function browserForTests(suite: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const reason = `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium; .ci/run does)`;
  if (process.env.REQUIRE_BROWSER === "1") {
    describe(suite, () => {
      it("finds Chromium, which REQUIRE_BROWSER=1 demands", () => {
        throw new Error(reason);
      });
    });
  } else {
    console.warn(`${suite} tests skipped: ${reason}`);
  }
  return false;
}

export interface TestBrowser {
  browser: Browser;
  /** A fresh context (its own cookies and storage: one person at one device). */
  context(options?: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** Chromium with a fresh profile (playwright gives every launch its own, removed on close). */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    context: async (options) => {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    },
    close: async () => {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
    },
  };
}

/**
 * The checks every screen gets: axe-core finds no serious or critical WCAG 2.1 A/AA violation,
 * and a full-page screenshot is saved as `<name>.png` under SCREENSHOTS_FOLDER. Call it once the
 * screen shows its content (wait for the content, not for a time).
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  mkdirSync(SCREENSHOTS_FOLDER, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_FOLDER, `${name}.png`), fullPage: true });
  expect(blocking, `accessibility of ${name}`).toEqual([]);
}
