import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Directory } from "../../src/app/directory.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { OperatorPasskey } from "../../src/app/operator-factors/operator-passkeys.js";
import { ProblemError } from "../../src/http/errors.js";
import { factorsOf, type MemberUser, signInStillPossible } from "../../src/identity/operator-login.js";
import { defineRoute } from "../../src/http/route.js";
import {
  type PasskeyCeremonies,
  PasskeyCeremonyError,
  type PasskeyHolder,
} from "../../src/identity/passkey-ceremonies.js";

/** Every operator role: each may enrol its own passkeys. */
const anyOperator = { kind: "operator", anyOf: ["AIRPORT_OPERATOR", "FINANCE_AUDIT"] } as const;

const passkeySchema = {
  type: "object",
  required: ["id", "name", "createdAt"],
  properties: {
    id: { type: "string", description: "The credential ID (base64url)" },
    name: { type: "string" },
    transports: { type: "array", items: { type: "string" } },
    createdAt: { type: "string", format: "date-time" },
    lastUsedAt: { type: "string", format: "date-time" },
  },
} as const;

function toWire(passkey: OperatorPasskey) {
  return {
    id: passkey._id,
    name: passkey.name,
    transports: passkey.transports,
    createdAt: passkey.createdAt,
    ...(passkey.lastUsedAt ? { lastUsedAt: passkey.lastUsedAt } : {}),
  };
}

/**
 * Passkey enrolment for the signed-in operator (spec 5.1: WebAuthn beside TOTP): the registration
 * ceremony in two calls (options, then the authenticator's answer), the list, and removal. Only a
 * person's own token may enrol: a service token has no person behind it. Enrolment and removal are
 * writes, audited like every other.
 */
export function passkeyRoutes(ceremonies: PasskeyCeremonies, directory: Directory) {
  const holderOf = async (principal: OperatorPrincipal): Promise<PasskeyHolder> => {
    const userId = principal.actorUrn.startsWith("urn:user:")
      ? principal.actorUrn.slice("urn:user:".length)
      : "";
    const user = userId ? await directory.findUser(userId) : undefined;
    if (!user || user.membership?.airlineUrn !== principal.tenant) {
      throw new ProblemError({
        status: 403,
        category: "forbidden",
        code: "passkey-holder",
        detail: "Only a signed-in operator enrols passkeys, for themselves (not a service token)",
      });
    }
    return { userId: user.id, tenant: principal.tenant, username: user.username };
  };

  /** Whether the holder could still sign in with `passkeysLeft` passkeys and their other factors. */
  const signInPossibleWith = async (holder: PasskeyHolder, passkeysLeft: number): Promise<boolean> => {
    const user = await directory.findUser(holder.userId);
    if (!user?.membership) return false;
    return signInStillPossible(directory, user as MemberUser, factorsOf(user, passkeysLeft));
  };

  return [
    defineRoute({
      method: "GET",
      path: "/v1/me/passkeys",
      operationId: "listMyPasskeys",
      summary: "The caller's enrolled passkeys",
      tags: ["Security"],
      access: anyOperator,
      responses: {
        200: {
          description: "Oldest first",
          schema: {
            type: "object",
            required: ["items"],
            properties: { items: { type: "array", items: passkeySchema } },
          },
        },
      },
      handler: async ({ principal }) => {
        const holder = await holderOf(principal);
        const passkeys = await ceremonies.passkeys.list(holder.tenant, holder.userId);
        return { status: 200, body: { items: passkeys.map(toWire) } };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/me/passkeys/registration-options",
      operationId: "startPasskeyEnrolment",
      summary: "Start enrolling a passkey: the options for navigator.credentials.create",
      description:
        "PublicKeyCredentialCreationOptionsJSON for @simplewebauthn/browser's startRegistration; the challenge is answered once, within five minutes, by POST /v1/me/passkeys.",
      tags: ["Security"],
      access: anyOperator,
      idempotent: false,
      responses: {
        200: { description: "The creation options (WebAuthn Level 3 JSON form)", schema: { type: "object" } },
      },
      handler: async ({ principal, ctx }) => {
        ctx.set("Cache-Control", "no-store");
        return { status: 200, body: await ceremonies.registrationOptions(await holderOf(principal)) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/me/passkeys",
      operationId: "enrolPasskey",
      summary: "Finish enrolling a passkey with the authenticator's answer",
      tags: ["Security"],
      access: anyOperator,
      idempotent: false,
      body: {
        type: "object",
        required: ["name", "response"],
        properties: {
          name: { type: "string", minLength: 1, maxLength: 64 },
          response: {
            type: "object",
            description: "RegistrationResponseJSON, as startRegistration returns it",
          },
        },
      },
      audit: {
        action: "passkey.enrol",
        subject: ({ principal }) => ({ entityUrn: principal?.actorUrn ?? null }),
      },
      responses: { 201: { description: "Enrolled", schema: passkeySchema } },
      handler: async ({ principal, body }) => {
        const holder = await holderOf(principal);
        try {
          const passkey = await ceremonies.register(
            holder,
            body.response as unknown as RegistrationResponseJSON,
            body.name.trim(),
          );
          return { status: 201, body: toWire(passkey) };
        } catch (error) {
          if (!(error instanceof PasskeyCeremonyError)) throw error;
          throw new ProblemError({
            status: 422,
            category: "unprocessable",
            code: "passkey",
            detail: error.message,
          });
        }
      },
    }),
    defineRoute({
      method: "DELETE",
      path: "/v1/me/passkeys/:passkeyId",
      operationId: "removePasskey",
      summary: "Remove one of the caller's passkeys",
      tags: ["Security"],
      access: anyOperator,
      params: {
        type: "object",
        required: ["passkeyId"],
        properties: { passkeyId: { type: "string", minLength: 1, maxLength: 1024 } },
      },
      audit: {
        action: "passkey.remove",
        subject: ({ principal }) => ({ entityUrn: principal?.actorUrn ?? null }),
      },
      responses: { 204: { description: "Removed" } },
      handler: async ({ principal, params }) => {
        const holder = await holderOf(principal);
        const passkeys = await ceremonies.passkeys.list(holder.tenant, holder.userId);
        if (!passkeys.some((p) => p._id === params.passkeyId)) {
          throw new ProblemError({
            status: 404,
            category: "not-found",
            code: "passkey",
            detail: "No such passkey of yours",
          });
        }
        if (!(await signInPossibleWith(holder, passkeys.length - 1))) {
          throw new ProblemError({
            status: 409,
            category: "conflict",
            code: "last-second-factor",
            detail:
              "This passkey is the last second factor your role accepts: enrol another (a passkey or an authenticator app) before removing it",
          });
        }
        await ceremonies.passkeys.remove(holder.tenant, holder.userId, params.passkeyId);
        return { status: 204 };
      },
    }),
  ];
}
