/**
 * Which page a console path shows: patterns such as `/cases/:caseUrn` (a parameter is one path
 * segment, URL-decoded). Pure, for the router and its tests.
 */

/** Where the operator API serves the console (src/http/front-end.ts). */
export const CONSOLE_BASE = "/console";

export interface Matched<P> {
  page: P;
  params: Record<string, string>;
}

/** The first of `pages` whose pattern matches `path` (a console path such as `/cases/urn%3Acase%3A1`). */
export function matchPath<P extends { path: string }>(
  pages: readonly P[],
  path: string,
): Matched<P> | undefined {
  const segments = split(path);
  for (const page of pages) {
    const pattern = split(page.path);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const actual = segments[i]!;
      if (part.startsWith(":")) {
        try {
          params[part.slice(1)] = decodeURIComponent(actual);
        } catch {
          return false;
        }
        return true;
      }
      return part === actual;
    });
    if (matches) return { page, params };
  }
  return undefined;
}

/** The console path of a browser path: `/console/cases` -> `/cases`, `/console/` -> `/`. */
export function consolePath(pathname: string): string {
  if (pathname === CONSOLE_BASE || pathname === `${CONSOLE_BASE}/`) return "/";
  return pathname.startsWith(`${CONSOLE_BASE}/`) ? pathname.slice(CONSOLE_BASE.length) : pathname;
}

/** The browser path of a console path (`/cases` -> `/console/cases`). */
export function browserPath(path: string): string {
  return `${CONSOLE_BASE}${path.startsWith("/") ? path : `/${path}`}`;
}

/** A console path with values filled in, each URL-encoded: `pathTo("/cases/:caseUrn", {caseUrn})`. */
export function pathTo(pattern: string, params: Record<string, string> = {}): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

function split(path: string): string[] {
  return path
    .split("?")[0]!
    .split("/")
    .filter((s) => s !== "");
}
