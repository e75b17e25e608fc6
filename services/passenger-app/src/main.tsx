import { render } from "preact";
import { App } from "./app.js";
import { takeLinkToken } from "./magic-link.js";
import "./styles.css";

// First of all: the magic link's token leaves the address bar and the history entry (spec 4.4),
// before anything renders or is fetched; the app exchanges it for the session cookie next.
const { token, cleanUrl } = takeLinkToken(location.href);
if (cleanUrl !== `${location.pathname}${location.search}${location.hash}`) {
  history.replaceState(history.state, "", cleanUrl);
}

render(<App linkToken={token} />, document.getElementById("app")!);

// The service worker keeps the offer screen and the voucher available offline (public/sw.js).
if ("serviceWorker" in navigator) {
  void navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Without it the app works online as before.
  });
}
