import { render } from "preact";
import { refreshAccessToken } from "./identity.js";
import { App } from "./pages.js";
import { consolePath } from "./route-match.js";

/**
 * Start-up: the access token lives in memory only, so a fresh page asks the identity provider for
 * one with the refresh cookie (spec 5.1); without one, or refused, the sign-in screen shows.
 */
async function start(): Promise<void> {
  if (consolePath(window.location.pathname) !== "/callback") {
    await refreshAccessToken().catch(() => "refused");
  }
  render(<App />, document.getElementById("app")!);
}

void start();
