/** Client-side navigation under /console/ with the history API (the server answers every screen with the page). */
import { useEffect, useState } from "preact/hooks";
import { browserPath, consolePath } from "./route-match.js";

export { pathTo } from "./route-match.js";

export interface Location {
  /** The console path, without `/console` and without the query. */
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();

function current(): Location {
  return { path: consolePath(window.location.pathname), query: new URLSearchParams(window.location.search) };
}

/** Shows the console path `to` (may carry a query), adding a history entry unless `replace`. */
export function navigate(to: string, replace = false): void {
  const url = browserPath(to);
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  for (const listener of [...listeners]) listener();
}

window.addEventListener("popstate", () => {
  for (const listener of [...listeners]) listener();
});

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const listener = () => setLocation(current());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return location;
}

/** The `href` for an `<a>` to console path `to`. */
export function href(to: string): string {
  return browserPath(to);
}

/** A click on a console link navigates without reloading (modifier clicks keep the browser's behaviour). */
export function followLink(event: MouseEvent, to: string): void {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  event.preventDefault();
  navigate(to);
}
