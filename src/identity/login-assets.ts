/**
 * The login page's scripts, served by the identity provider itself (no CDN, no inline script):
 * @simplewebauthn/browser's own bundle from its npm package, and the page's passkey step.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Middleware } from "koa";

export const LOGIN_ASSETS = {
  webauthn: "webauthn-browser.js",
  passkeySignIn: "passkey-sign-in.js",
} as const;

/** The package's browser bundle (UMD: it defines the global SimpleWebAuthnBrowser). */
function webauthnBundle(): string {
  // The package exports only its entry points; its folder is two levels above the ESM entry.
  const entry = fileURLToPath(import.meta.resolve("@simplewebauthn/browser"));
  return readFileSync(join(dirname(dirname(entry)), "dist", "bundle", "index.umd.min.js"), "utf8");
}

/**
 * The second-factor screen's passkey button: asks the identity provider for a challenge, lets the
 * browser's authenticator answer it, and follows the sign-in on. Its addresses are the button's
 * `data-` attributes; what went wrong is written into the page's status region.
 */
const PASSKEY_SIGN_IN = `"use strict";
(function () {
  var button = document.getElementById("passkey-sign-in");
  var status = document.getElementById("passkey-status");
  if (!button || !status) return;
  function say(text) { status.textContent = text; }
  if (!window.SimpleWebAuthnBrowser || !SimpleWebAuthnBrowser.browserSupportsWebAuthn()) {
    button.disabled = true;
    say("This browser cannot use passkeys: use a one-time code.");
    return;
  }
  button.addEventListener("click", async function () {
    button.disabled = true;
    say("Waiting for your passkey...");
    try {
      var optionsResponse = await fetch(button.dataset.options, { method: "POST", credentials: "same-origin" });
      var options = await optionsResponse.json();
      if (!optionsResponse.ok) throw new Error(options.error_description || "the sign-in expired");
      var answer = await SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: options });
      var verified = await fetch(button.dataset.verify, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(answer),
      });
      var outcome = await verified.json();
      if (!verified.ok) throw new Error(outcome.error_description || "the passkey was refused");
      say("Signed in.");
      window.location.assign(outcome.location);
    } catch (error) {
      say("The passkey sign-in did not complete: " + (error && error.message ? error.message : error));
      button.disabled = false;
    }
  });
})();
`;

/** Serves the assets under `<mount>/assets/`. */
export function loginAssets(): Middleware {
  const files = new Map<string, string>([
    [LOGIN_ASSETS.webauthn, webauthnBundle()],
    [LOGIN_ASSETS.passkeySignIn, PASSKEY_SIGN_IN],
  ]);
  return async (ctx, next) => {
    const name = ctx.path.startsWith("/assets/") ? ctx.path.slice("/assets/".length) : undefined;
    const content = name === undefined ? undefined : files.get(name);
    if (content === undefined || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    ctx.type = "text/javascript; charset=utf-8";
    ctx.set("Cache-Control", "no-cache");
    ctx.body = content;
  };
}
