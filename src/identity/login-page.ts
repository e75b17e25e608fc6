import { randomBytes } from "node:crypto";
import { Router } from "@koa/router";
import type { Context, Middleware } from "koa";
import type Provider from "oidc-provider";
import { OPERATOR_SCOPE } from "../http/auth/claims.js";
import type { Doc, DocumentStore } from "../runtime/document-store.js";
import { AMR_OF_FACTOR, type SecondFactor, type SignInPlace } from "../domain/second-factors.js";
import {
  renderSecondFactor,
  renderSignInForm,
  type ScreenPaths,
  type SecondFactorScreen,
} from "./login-screens.js";
import { maskedNumber, type SentSmsCode, SmsCodeError, type SmsCodes } from "./sms-codes.js";
import {
  checkPassword,
  checkTotp,
  type MemberUser,
  type OperatorSignIn,
  recordSignIn,
} from "./operator-login.js";
import { PasskeyCeremonyError, type PasskeyCeremonies } from "./passkey-ceremonies.js";
import { readRequestBody } from "./request-body.js";

export interface LoginPageOptions {
  provider: Provider;
  signIn: OperatorSignIn;
  passkeys: PasskeyCeremonies;
  documents: DocumentStore;
  /** The path the identity provider is mounted at (the issuer's path), e.g. `/auth`. */
  mountPath: string;
  /** The operator audience: the only API the console logs in for. */
  operatorAudience: string;
  sms: SmsCodes;
}

/** A sign-in whose password was right and which waits for its second factor (spec 5.1). */
interface PendingSecondFactor extends Doc {
  /** The interaction's uid. */
  _id: string;
  userId: string;
  username: string;
  factors: SecondFactor[];
  why: string;
  place?: SignInPlace;
  smsCode?: SentSmsCode;
  failures: number;
  expiresAt: number;
}

const TOO_MANY_FAILURES = "too many wrong second factors: start again with your password";
const PENDING_COLLECTION = "operator_sign_in_steps";
/** Wrong second factors before the sign-in starts over from the password. */
const MAX_FAILURES = 5;
const PENDING_MS = 10 * 60 * 1000;
/** The browser's device id, for the new-device risk signal. Not a secret: it proves nothing alone. */
const DEVICE_COOKIE = "operator_device";
const DEVICE_COOKIE_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;

/**
 * The console's sign-in step of the authorization-code flow: the password form (with an optional
 * one-time code for a sign-in in one go), then, when the sign-in needs a second factor, a screen
 * for a passkey or a one-time code. The console is a first-party client, so a successful login also
 * grants the operator scopes without a separate consent screen.
 */
export function loginPage(options: LoginPageOptions): Middleware {
  const { provider, signIn, passkeys, documents, mountPath, operatorAudience, sms } = options;
  const { clock } = signIn;
  const pendingSteps = () => documents.collection<PendingSecondFactor>(PENDING_COLLECTION);
  const pathsOf = (uid: string): ScreenPaths => ({
    interaction: `${mountPath}/interaction/${encodeURIComponent(uid)}`,
    assets: `${mountPath}/assets`,
  });
  const router = new Router();

  // Every console sign-in authenticates afresh, even with an identity-provider session left in the
  // browser: the console keeps its tokens in memory plus the refresh cookie (spec 5.1), so the
  // session would otherwise let anyone at a logged-out browser back in without password or factor.
  router.get("/interaction/:uid", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    renderSignInForm(ctx, pathsOf(details.uid));
  });

  router.post("/interaction/:uid/login", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const paths = pathsOf(details.uid);
    const form = await readRequestBody(ctx);
    const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
    const device = deviceOf(ctx);
    const first = await checkPassword(signIn, {
      username: field("username"),
      password: field("password"),
      address: ctx.ip,
      ...(device ? { device } : {}),
    });
    if (!first.ok) {
      renderSignInForm(ctx, paths, first.reason, field("username"));
      return;
    }
    const { user, decision, place } = first;
    const otp = field("otp").trim();
    if (otp) {
      if (!checkTotp(user, otp, clock)) {
        renderSignInForm(ctx, paths, "invalid one-time code", field("username"));
        return;
      }
      await complete(ctx, details, user, ["pwd", AMR_OF_FACTOR.totp], place, "redirect");
      return;
    }
    if (decision.kind === "password-only") {
      await complete(ctx, details, user, ["pwd"], place, "redirect");
      return;
    }
    const pending: PendingSecondFactor = {
      _id: details.uid,
      userId: user.id,
      username: user.username,
      factors: decision.factors,
      why: decision.why,
      ...(place ? { place } : {}),
      failures: 0,
      expiresAt: clock.now() + PENDING_MS,
    };
    await pendingSteps().put(pending);
    renderSecondFactor(ctx, paths, screenOf(pending, user));
  });

  router.post("/interaction/:uid/otp", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const paths = pathsOf(details.uid);
    const step = await pendingStep(details.uid, "totp");
    if (!step.ok) {
      renderSignInForm(ctx, paths, step.reason);
      return;
    }
    const form = await readRequestBody(ctx);
    const otp = typeof form.otp === "string" ? form.otp : "";
    if (!checkTotp(step.user, otp, clock)) {
      const again = await failed(step.pending);
      if (again)
        renderSecondFactor(ctx, paths, { ...screenOf(again, step.user), error: "invalid one-time code" });
      else renderSignInForm(ctx, paths, TOO_MANY_FAILURES);
      return;
    }
    await complete(ctx, details, step.user, ["pwd", AMR_OF_FACTOR.totp], step.pending.place, "redirect");
  });

  router.post("/interaction/:uid/sms/send", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const paths = pathsOf(details.uid);
    const step = await pendingStep(details.uid, "sms");
    if (!step.ok) return renderSignInForm(ctx, paths, step.reason);
    try {
      const smsCode = await sms.send(step.user, step.pending.smsCode);
      const sent = await pendingSteps().updateOne({ _id: step.pending._id }, { $set: { smsCode } });
      renderSecondFactor(ctx, paths, screenOf(sent ?? step.pending, step.user));
    } catch (error) {
      if (!(error instanceof SmsCodeError)) throw error;
      renderSecondFactor(ctx, paths, { ...screenOf(step.pending, step.user), error: error.message });
    }
  });

  router.post("/interaction/:uid/sms", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const paths = pathsOf(details.uid);
    const step = await pendingStep(details.uid, "sms");
    if (!step.ok) return renderSignInForm(ctx, paths, step.reason);
    const form = await readRequestBody(ctx);
    if (!sms.matches(step.pending.smsCode, typeof form.otp === "string" ? form.otp : "")) {
      const again = await failed(step.pending);
      if (again)
        renderSecondFactor(ctx, paths, {
          ...screenOf(again, step.user),
          error: "invalid or expired SMS code",
        });
      else renderSignInForm(ctx, paths, TOO_MANY_FAILURES);
      return;
    }
    await complete(ctx, details, step.user, ["pwd", AMR_OF_FACTOR.sms], step.pending.place, "redirect");
  });

  router.post("/interaction/:uid/passkey/options", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const step = await pendingStep(details.uid, "webauthn");
    if (!step.ok) return refuseJson(ctx, step.reason);
    ctx.set("Cache-Control", "no-store");
    ctx.body = await passkeys.authenticationOptions(details.uid, holderOf(step.user));
  });

  router.post("/interaction/:uid/passkey", async (ctx) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const step = await pendingStep(details.uid, "webauthn");
    if (!step.ok) return refuseJson(ctx, step.reason);
    const answer = await readRequestBody(ctx);
    try {
      await passkeys.authenticate(details.uid, holderOf(step.user), answer as never);
    } catch (error) {
      if (!(error instanceof PasskeyCeremonyError)) throw error;
      const again = await failed(step.pending);
      return refuseJson(
        ctx,
        again ? error.message : "too many wrong second factors: start again with your password",
      );
    }
    await complete(ctx, details, step.user, ["pwd", AMR_OF_FACTOR.webauthn], step.pending.place, "json");
  });

  function screenOf(pending: PendingSecondFactor, user: MemberUser): SecondFactorScreen {
    const sentTo = pending.smsCode && user.smsNumber ? maskedNumber(user.smsNumber) : undefined;
    return {
      username: pending.username,
      why: pending.why,
      factors: pending.factors,
      sms: { available: sms.available, ...(sentTo ? { sentTo } : {}) },
    };
  }

  /** The interaction's pending second factor, if it is still open and accepts `factor`. */
  async function pendingStep(
    uid: string,
    factor: SecondFactor,
  ): Promise<{ ok: true; pending: PendingSecondFactor; user: MemberUser } | { ok: false; reason: string }> {
    const pending = await pendingSteps().get(uid);
    if (!pending || pending.expiresAt < clock.now())
      return { ok: false, reason: "the sign-in expired: start again with your password" };
    if (!pending.factors.includes(factor))
      return { ok: false, reason: `this sign-in cannot be confirmed with ${factor}` };
    const user = await signIn.directory.findUser(pending.userId);
    if (!user?.membership) return { ok: false, reason: "the user is not a member of any organization" };
    return { ok: true, pending, user: user as MemberUser };
  }

  /** Counts a wrong answer; the step to show again, or undefined once it is used up (and removed). */
  async function failed(pending: PendingSecondFactor): Promise<PendingSecondFactor | undefined> {
    if (pending.failures + 1 >= MAX_FAILURES) {
      await pendingSteps().deleteOne({ _id: pending._id });
      return undefined;
    }
    return pendingSteps().updateOne({ _id: pending._id }, { $inc: { failures: 1 } });
  }

  async function complete(
    ctx: Context,
    { uid, params }: { uid: string; params: Record<string, unknown> },
    user: MemberUser,
    amr: string[],
    place: SignInPlace | undefined,
    answer: "redirect" | "json",
  ): Promise<void> {
    const grantId = await grantOperatorScopes(user.id, params);
    if (!grantId) {
      if (answer === "json") return refuseJson(ctx, "the console may only sign in for the operator API");
      return renderSignInForm(ctx, pathsOf(uid), "the console may only sign in for the operator API");
    }
    await pendingSteps().deleteOne({ _id: uid });
    const device = deviceOf(ctx) ?? newDevice(ctx);
    await recordSignIn(signIn, user, { device, ...(place ? { place } : {}) });
    const location = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId: user.id, amr }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    if (answer === "json") {
      // The passkey step runs in a script (fetch), which follows the sign-in on itself.
      ctx.set("Cache-Control", "no-store");
      ctx.body = { location };
      return;
    }
    ctx.redirect(location);
    ctx.status = 303;
  }

  async function grantOperatorScopes(
    accountId: string,
    params: Record<string, unknown>,
  ): Promise<string | undefined> {
    const resource = params.resource ?? operatorAudience;
    if (resource !== operatorAudience || typeof params.client_id !== "string") return undefined;
    const grant = new provider.Grant({ accountId, clientId: params.client_id });
    const allowed = new Set(OPERATOR_SCOPE.split(" "));
    const requested = typeof params.scope === "string" ? params.scope.split(" ") : [];
    grant.addOIDCScope(requested.filter((s) => allowed.has(s)).join(" "));
    grant.addResourceScope(operatorAudience, OPERATOR_SCOPE);
    return grant.save();
  }

  function newDevice(ctx: Context): string {
    const device = randomBytes(16).toString("base64url");
    ctx.cookies.set(DEVICE_COOKIE, device, {
      httpOnly: true,
      sameSite: "lax",
      path: mountPath || "/",
      maxAge: DEVICE_COOKIE_MAX_AGE_MS,
      signed: false,
    });
    return device;
  }

  return router.routes() as Middleware;
}

function deviceOf(ctx: Context): string | undefined {
  const value = ctx.cookies.get(DEVICE_COOKIE, { signed: false });
  return value && /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : undefined;
}

function holderOf(user: MemberUser) {
  return { userId: user.id, tenant: user.membership.airlineUrn, username: user.username };
}

function refuseJson(ctx: Context, reason: string): void {
  ctx.status = 400;
  ctx.set("Cache-Control", "no-store");
  ctx.body = { error: "access_denied", error_description: reason };
}
