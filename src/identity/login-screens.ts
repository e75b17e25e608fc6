/**
 * The server-rendered screens of the operator sign-in (spec 5.1): the password form, and the
 * second-factor screen (passkey, one-time code) when the sign-in needs one. Scripts are files of
 * the identity provider (login-assets.ts); the pages carry none inline.
 */
import type { Context } from "koa";
import type { SecondFactor } from "../domain/second-factors.js";
import { LOGIN_ASSETS } from "./login-assets.js";

export interface ScreenPaths {
  /** Where the interaction's routes are: `<mount>/interaction/<uid>`. */
  interaction: string;
  /** Where the scripts are: `<mount>/assets`. */
  assets: string;
}

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function renderSignInForm(ctx: Context, paths: ScreenPaths, error?: string, username = ""): void {
  page(
    ctx,
    "Operator sign-in",
    `${errorLine(error)}
  <form method="post" action="${escapeHtml(paths.interaction)}/login" autocomplete="off">
    <label>Username <input name="username" value="${escapeHtml(username)}" required autofocus></label>
    <label>Password <input name="password" type="password" required></label>
    <label>One-time code <input name="otp" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" aria-describedby="otp-hint"></label>
    <p class="hint" id="otp-hint">Optional here: if your account needs a second factor (a passkey or a code from your authenticator app), the next screen asks for it.</p>
    <button type="submit">Sign in</button>
  </form>`,
  );
}

export interface SecondFactorScreen {
  username: string;
  /** Why a second factor is needed (the decision's `why`). */
  why: string;
  factors: readonly SecondFactor[];
  error?: string;
  /** What the SMS step can do: send at all, and where the last code went. */
  sms?: { available: boolean; sentTo?: string };
}

export function renderSecondFactor(ctx: Context, paths: ScreenPaths, screen: SecondFactorScreen): void {
  const { factors } = screen;
  const passkey = factors.includes("webauthn")
    ? `<section aria-labelledby="passkey-heading">
    <h2 id="passkey-heading">Passkey</h2>
    <button type="button" id="passkey-sign-in" data-options="${escapeHtml(paths.interaction)}/passkey/options" data-verify="${escapeHtml(paths.interaction)}/passkey">Sign in with a passkey</button>
    <p id="passkey-status" role="status" aria-live="polite"></p>
  </section>`
    : "";
  const code = factors.includes("totp")
    ? `<section aria-labelledby="otp-heading">
    <h2 id="otp-heading">Authenticator app</h2>
    <form method="post" action="${escapeHtml(paths.interaction)}/otp" autocomplete="off">
      <label>One-time code <input name="otp" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required${factors[0] === "totp" ? " autofocus" : ""}></label>
      <button type="submit">Verify the code</button>
    </form>
  </section>`
    : "";
  const sms = factors.includes("sms") ? smsSection(paths, screen.sms) : "";
  page(
    ctx,
    "Second factor",
    `${errorLine(screen.error)}
  <p>Signed in as <strong>${escapeHtml(screen.username)}</strong> with a password. Multi-factor authentication is required: ${escapeHtml(screen.why)}.</p>
  ${passkey}
  ${code}
  ${sms}
  <p><a href="${escapeHtml(paths.interaction)}">Start again as someone else</a></p>`,
    factors.includes("webauthn") ? paths.assets : undefined,
  );
}

function smsSection(paths: ScreenPaths, sms: SecondFactorScreen["sms"]): string {
  const heading = `<h2 id="sms-heading">Text message</h2>`;
  if (!sms?.available) {
    return `<section aria-labelledby="sms-heading">
    ${heading}
    <p>Codes by SMS are a last resort and cannot be sent here: enrol a passkey or an authenticator app.</p>
  </section>`;
  }
  const enterCode = sms.sentTo
    ? `<p role="status">A code was sent to ${escapeHtml(sms.sentTo)}.</p>
    <form method="post" action="${escapeHtml(paths.interaction)}/sms" autocomplete="off">
      <label>SMS code <input name="otp" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autofocus></label>
      <button type="submit">Verify the SMS code</button>
    </form>`
    : "";
  return `<section aria-labelledby="sms-heading">
    ${heading}
    ${enterCode}
    <form method="post" action="${escapeHtml(paths.interaction)}/sms/send">
      <button type="submit">${sms.sentTo ? "Send another code by SMS" : "Send a code by SMS"}</button>
    </form>
  </section>`;
}

function page(ctx: Context, title: string, main: string, scriptsFrom?: string): void {
  ctx.type = "html";
  ctx.set("Cache-Control", "no-store");
  ctx.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  const scripts = scriptsFrom
    ? `
  <script src="${escapeHtml(scriptsFrom)}/${LOGIN_ASSETS.webauthn}" defer></script>
  <script src="${escapeHtml(scriptsFrom)}/${LOGIN_ASSETS.passkeySignIn}" defer></script>`
    : "";
  ctx.body = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 24rem; margin: 3rem auto; padding: 0 1rem; }
    label { display: block; margin-top: 0.8rem; }
    input { width: 100%; padding: 0.4rem; box-sizing: border-box; }
    button { margin-top: 1.2rem; padding: 0.5rem 1rem; }
    h2 { font-size: 1.1rem; margin-top: 1.6rem; }
    .error { color: #b00020; }
    .hint { font-size: 0.85rem; color: #555; }
  </style>${scripts}
</head>
<body>
<main>
  <h1>${escapeHtml(title)}</h1>
  ${main}
</main>
</body>
</html>`;
}

function errorLine(error: string | undefined): string {
  return error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
