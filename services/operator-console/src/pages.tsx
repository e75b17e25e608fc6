/**
 * The console's screens and the frame around them. Add a screen by adding an entry to PAGES (its
 * component in src/pages/<name>.tsx); `minRole` hides it from the navigation of roles that cannot
 * use it and shows a refusal instead (the API still decides), `nav: false` keeps it out of the
 * navigation (detail screens reached by links).
 */
import type { ComponentType } from "preact";
import { useEffect } from "preact/hooks";
import { Layout } from "./components/layout.js";
import { AuditPage } from "./pages/audit.js";
import { CallbackPage } from "./pages/callback.js";
import { CaseDetailPage } from "./pages/case-detail.js";
import { CasesPage } from "./pages/cases.js";
import { DashboardPage } from "./pages/dashboard.js";
import { PoliciesPage } from "./pages/policies.js";
import { ReviewQueuePage } from "./pages/review-queue.js";
import { SecurityPage } from "./pages/security.js";
import { SignInPage } from "./pages/sign-in.js";
import { matchPath } from "./route-match.js";
import type { Role } from "./roles.js";
import { type Location, useLocation } from "./router.js";
import { can, sessionEndedBecause, useSession } from "./session.js";

export interface PageProps {
  /** The path's parameters, URL-decoded (`/cases/:caseUrn` -> `{caseUrn}`). */
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface PageEntry {
  /** The console path (under /console), parameters as `:name`. */
  path: string;
  title: string;
  component: ComponentType<PageProps>;
  /** The least role that may open it, or several (each with what inherits it): spec part 4's "X+". */
  minRole?: Role | readonly Role[];
  /** In the main navigation (default true). */
  nav?: boolean;
}

export const PAGES: PageEntry[] = [
  { path: "/", title: "Dashboard", component: DashboardPage, minRole: "AIRPORT_OPERATOR" },
  { path: "/cases", title: "Cases", component: CasesPage, minRole: "AIRPORT_OPERATOR" },
  {
    path: "/cases/:caseUrn",
    title: "Case",
    component: CaseDetailPage,
    minRole: "AIRPORT_OPERATOR",
    nav: false,
  },
  { path: "/review", title: "Manual review", component: ReviewQueuePage, minRole: "AIRPORT_OPERATOR" },
  { path: "/policies", title: "Policies", component: PoliciesPage, minRole: "AIRPORT_OPERATOR" },
  { path: "/audit", title: "Audit", component: AuditPage, minRole: ["FINANCE_AUDIT", "OPS_SUPERVISOR"] },
  { path: "/security", title: "Security", component: SecurityPage },
];

const CALLBACK = "/callback";

/** The whole console: the callback, the sign-in screen, or the signed-in frame with the current screen. */
export function App() {
  const location = useLocation();
  const operator = useSession();
  if (location.path === CALLBACK) return <CallbackPage />;
  if (!operator) return <SignInPage returnTo={returnPath(location)} notice={sessionEndedBecause()} />;
  const nav = PAGES.filter((p) => p.nav !== false && (!p.minRole || can(operator, p.minRole)));
  // The console's home is the dashboard; a role that may not see it starts on its first screen.
  const dashboard = PAGES[0]!;
  const home =
    location.path === "/" && dashboard.minRole && !can(operator, dashboard.minRole) ? nav[0] : undefined;
  const matched = home ? { page: home, params: {} } : matchPath(PAGES, location.path);
  return (
    <Layout operator={operator} nav={nav} currentPath={location.path}>
      {!matched ? (
        <NotFound />
      ) : matched.page.minRole && !can(operator, matched.page.minRole) ? (
        <Refused title={matched.page.title} />
      ) : (
        <Screen entry={matched.page} params={matched.params} query={location.query} />
      )}
    </Layout>
  );
}

function Screen({
  entry,
  params,
  query,
}: {
  entry: PageEntry;
  params: Record<string, string>;
  query: URLSearchParams;
}) {
  useEffect(() => {
    document.title = `${entry.title} · Operations console`;
  }, [entry.title]);
  const Component = entry.component;
  return <Component params={params} query={query} />;
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such screen in the console.</p>
    </>
  );
}

function Refused({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p role="alert">Your role may not open this screen.</p>
    </>
  );
}

function returnPath(location: Location): string {
  const query = location.query.toString();
  return `${location.path}${query ? `?${query}` : ""}`;
}
