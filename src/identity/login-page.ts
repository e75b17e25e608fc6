import { Router } from "@koa/router";
import type { Context, Middleware } from "koa";
import type Provider from "oidc-provider";
import type { Clock } from "../runtime/clock.js";
import { OPERATOR_SCOPE } from "../http/auth/claims.js";
import type { Directory } from "../app/directory.js";
import { checkOperatorLogin } from "./operator-login.js";
import { readRequestBody } from "./request-body.js";

export interface LoginPageOptions {
  provider: Provider;
  directory: Directory;
  clock: Clock;
  /** The operator audience: the only API the console logs in for. */
  operatorAudience: string;
}

/**
 * The console's sign-in step of the authorization-code flow: a server-rendered form (username,
 * password, one-time code). The console is a first-party client, so a successful login also grants
 * the operator scopes without a separate consent screen.
 */
export function loginPage({ provider, directory, clock, operatorAudience }: LoginPageOptions): Middleware {
  const router = new Router();

  router.get("/interaction/:uid", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const accountId = details.session?.accountId;
    if (details.prompt.name === "login" || !accountId) {
      renderForm(ctx, details.uid);
      return;
    }
    const grantId = await grantOperatorScopes(details.grantId, accountId, details.params);
    if (!grantId) {
      renderForm(ctx, details.uid, "the console may only sign in for the operator API");
      return;
    }
    await finish(ctx, { consent: { grantId } }, true);
  });

  router.post("/interaction/:uid/login", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const form = await readRequestBody(ctx);
    const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
    const outcome = await checkOperatorLogin(directory, clock, {
      username: field("username"),
      password: field("password"),
      otp: field("otp"),
    });
    if (!outcome.ok) {
      renderForm(ctx, details.uid, outcome.reason, field("username"));
      return;
    }
    const grantId = await grantOperatorScopes(undefined, outcome.user.id, details.params);
    if (!grantId) {
      renderForm(ctx, details.uid, "the console may only sign in for the operator API");
      return;
    }
    await finish(
      ctx,
      { login: { accountId: outcome.user.id, amr: outcome.amr }, consent: { grantId } },
      false,
    );
  });

  async function grantOperatorScopes(
    existingGrantId: string | undefined,
    accountId: string,
    params: Record<string, unknown>,
  ): Promise<string | undefined> {
    const resource = params.resource ?? operatorAudience;
    if (resource !== operatorAudience || typeof params.client_id !== "string") return undefined;
    const grant =
      (existingGrantId ? await provider.Grant.find(existingGrantId) : undefined) ??
      new provider.Grant({ accountId, clientId: params.client_id });
    const allowed = new Set(OPERATOR_SCOPE.split(" "));
    const requested = typeof params.scope === "string" ? params.scope.split(" ") : [];
    grant.addOIDCScope(requested.filter((s) => allowed.has(s)).join(" "));
    grant.addResourceScope(operatorAudience, OPERATOR_SCOPE);
    return grant.save();
  }

  async function finish(ctx: Context, result: Record<string, unknown>, mergeWithLastSubmission: boolean) {
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission });
    ctx.redirect(returnTo);
    ctx.status = 303;
  }

  return router.routes() as Middleware;
}

function renderForm(ctx: Context, uid: string, error?: string, username = ""): void {
  ctx.type = "html";
  ctx.set("Cache-Control", "no-store");
  ctx.body = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Operator sign-in</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 22rem; margin: 3rem auto; padding: 0 1rem; }
    label { display: block; margin-top: 0.8rem; }
    input { width: 100%; padding: 0.4rem; box-sizing: border-box; }
    button { margin-top: 1.2rem; padding: 0.5rem 1rem; }
    .error { color: #b00020; }
    .hint { font-size: 0.85rem; color: #555; }
  </style>
</head>
<body>
  <h1>Operator sign-in</h1>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
  <form method="post" action="${escapeHtml(uid)}/login" autocomplete="off">
    <label>Username <input name="username" value="${escapeHtml(username)}" required autofocus></label>
    <label>Password <input name="password" type="password" required></label>
    <label>One-time code <input name="otp" inputmode="numeric" pattern="[0-9]{6}" maxlength="6"></label>
    <p class="hint">The one-time code from your authenticator app is required for ADMIN, OPS_SUPERVISOR and FINANCE_AUDIT.</p>
    <button type="submit">Sign in</button>
  </form>
</body>
</html>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
