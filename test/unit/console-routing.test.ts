import { describe, expect, it } from "vitest";
import {
  browserPath,
  consolePath,
  matchPath,
  pathTo,
} from "../../services/operator-console/src/route-match.js";
import { formatMoney, label, shortUrn } from "../../services/operator-console/src/format.js";

const PAGES = [
  { path: "/" },
  { path: "/cases" },
  { path: "/cases/:caseUrn" },
  { path: "/cases/:caseUrn/audit" },
];

describe("console routing", () => {
  it("matches console paths to pages with URL-decoded parameters", () => {
    const urn = "urn:case:2a76/x";
    expect(matchPath(PAGES, "/")).toEqual({ page: PAGES[0], params: {} });
    expect(matchPath(PAGES, "/cases/")?.page).toBe(PAGES[1]);
    expect(matchPath(PAGES, pathTo("/cases/:caseUrn", { caseUrn: urn }))).toEqual({
      page: PAGES[2],
      params: { caseUrn: urn },
    });
    expect(matchPath(PAGES, `/cases/${encodeURIComponent(urn)}/audit`)?.page).toBe(PAGES[3]);
    expect(matchPath(PAGES, "/policies")).toBeUndefined();
    expect(matchPath(PAGES, "/cases/%E0%A4%A")).toBeUndefined();
  });

  it("maps between browser paths under /console/ and console paths", () => {
    expect(consolePath("/console/")).toBe("/");
    expect(consolePath("/console")).toBe("/");
    expect(consolePath("/console/cases/x")).toBe("/cases/x");
    expect(browserPath("/cases")).toBe("/console/cases");
    expect(browserPath("/")).toBe("/console/");
  });
});

describe("console formats", () => {
  it("writes money in the currency's own decimals, labels and short URNs", () => {
    expect(formatMoney({ amountMinor: 10941, currency: "USD" })).toBe("USD 109.41");
    expect(formatMoney({ amountMinor: 1200, currency: "JPY" })).toBe("JPY 1200");
    expect(formatMoney(null)).toBe("—");
    expect(label("OFFER_READY")).toBe("Offer ready");
    expect(label("issue-wallet-card")).toBe("Issue wallet card");
    expect(shortUrn("urn:case:2a760cdf-e238")).toBe("2a760cdf");
  });
});
