/**
 * What the console's browser tests share: the platform, a partner's pushed case, and an operator
 * signing in through the identity provider's real login page (authorization code + PKCE, with the
 * one-time code for the roles that need it, spec 5.1).
 */
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { totpCode } from "../../src/identity/totp.js";
import type { TestPlatform } from "../support/platform.js";
import { push } from "./cases-fixtures.js";

/** A case pushed by Zephyr Air's partner (as the partner tests push it); its URN. */
export async function pushCase(p: TestPlatform, externalEventId: string): Promise<string> {
  const partner = await p.partnerToken("skyhub-zx");
  const response = await p.call("POST", "/partner/v1/disruptions", partner, push(externalEventId));
  expect(response.status).toBe(202);
  return ((await response.json()) as { caseUrn: string }).caseUrn;
}

/** The demo user's password and TOTP secret. */
export function demoUser(p: TestPlatform, username: string) {
  return p.credentials.tenants.flatMap((t) => t.users).find((u) => u.username === username)!;
}

/**
 * Signs `username` in from the console's sign-in screen: the identity provider's password form, then
 * its second-factor screen with the one-time code for the roles that need one; waits for the
 * signed-in frame.
 */
export async function signIn(
  p: TestPlatform,
  page: Page,
  username: string,
  path = "/console/",
): Promise<void> {
  const user = demoUser(p, username);
  await page.goto(`${p.base}${path}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await submitPassword(page, username, user.password);
  if (user.totpSecret) {
    await page.getByLabel("One-time code").fill(totpCode(user.totpSecret, Date.now()));
    await page.getByRole("button", { name: "Verify the code" }).click();
  }
  await page.getByRole("button", { name: "Log out" }).waitFor();
}

/** The identity provider's first screen: username and password. */
export async function submitPassword(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel("Password").waitFor();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * A group's row in the case page's sub-cases table. The allocation table above it names the group
 * too, so a row is looked for in the "Groups and sub-cases" section only.
 */
export function subCaseRow(page: Page, group: string): Locator {
  return page
    .getByRole("region", { name: "Groups and sub-cases" })
    .locator("tr", { has: page.getByRole("rowheader", { name: group }) });
}
