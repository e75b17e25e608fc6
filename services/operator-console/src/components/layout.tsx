import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { useLiveStatus } from "../live.js";
import { logout } from "../logout.js";
import type { Operator } from "../session.js";
import { Link } from "./link.js";
import { ProblemMessage } from "./problem-message.js";

export interface NavEntry {
  path: string;
  title: string;
}

const LIVE_LABEL = { live: "Live", connecting: "Connecting…", offline: "Offline" } as const;

/** The frame of every signed-in screen: navigation, who is signed in, the live indicator, logout. */
export function Layout({
  operator,
  nav,
  currentPath,
  children,
}: {
  operator: Operator;
  nav: readonly NavEntry[];
  currentPath: string;
  children: ComponentChildren;
}) {
  const status = useLiveStatus();
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<unknown>();
  const onLogout = async () => {
    setLeaving(true);
    setError(undefined);
    try {
      await logout();
    } catch (e) {
      setError(e);
      setLeaving(false);
    }
  };
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Operations console</span>
        <nav aria-label="Main">
          <ul>
            {nav.map((entry) => (
              <li key={entry.path}>
                <Link to={entry.path} class={isCurrent(entry.path, currentPath) ? "current" : undefined}>
                  {entry.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span class={`live live-${status}`} role="status" aria-label={`Live updates: ${LIVE_LABEL[status]}`}>
          {LIVE_LABEL[status]}
        </span>
        <span class="who">
          {operator.email} <span class="badge">{operator.role}</span>
          {operator.airport ? <span class="badge">{operator.airport}</span> : null}
        </span>
        <button type="button" onClick={onLogout} disabled={leaving}>
          {leaving ? "Logging out…" : "Log out"}
        </button>
      </header>
      {error ? <ProblemMessage error={error} /> : null}
      <main id="main">{children}</main>
    </div>
  );
}

function isCurrent(entryPath: string, currentPath: string): boolean {
  return entryPath === "/"
    ? currentPath === "/"
    : currentPath === entryPath || currentPath.startsWith(`${entryPath}/`);
}
