/**
 * Request and response bodies of the passenger authentication routes, for validation and the
 * passenger OpenAPI document.
 */
import { timestampSchema, urnOf } from "../http/schemas/common.js";

export const captchaChallengeSchema = {
  type: "object",
  description: "An ALTCHA v2 challenge; solve it with the ALTCHA widget and send its payload as `captcha`",
  required: ["parameters", "signature"],
  properties: {
    parameters: {
      type: "object",
      required: ["algorithm", "nonce", "salt", "cost", "keyLength", "keyPrefix"],
      properties: {
        algorithm: { type: "string" },
        nonce: { type: "string" },
        salt: { type: "string" },
        cost: { type: "integer" },
        keyLength: { type: "integer" },
        keyPrefix: { type: "string" },
        keySignature: { type: "string" },
        data: {
          type: "object",
          description: "`expiresAt`: when the challenge stops being accepted (ms since the epoch)",
        },
      },
    },
    signature: { type: "string" },
  },
} as const;

export const pnrLoginBodySchema = {
  type: "object",
  required: ["pnr", "lastName", "captcha"],
  properties: {
    pnr: { type: "string", minLength: 1, maxLength: 16, description: "Booking reference" },
    lastName: {
      type: "string",
      minLength: 1,
      maxLength: 100,
      description: "Compared without case or accents",
    },
    captcha: {
      type: "string",
      maxLength: 16384,
      description:
        "ALTCHA payload (base64) solving a fresh challenge of GET /v1/auth/captcha; each is accepted once",
    },
  },
} as const;

export const pnrLoginResponseSchema = {
  type: "object",
  required: ["sessionToken", "caseUrn", "expiresAt"],
  properties: {
    sessionToken: { type: "string", description: "EdDSA JWT, valid 7 days; send as `Authorization: Bearer`" },
    caseUrn: urnOf("case"),
    expiresAt: timestampSchema,
  },
} as const;

export const magicLinkExchangeBodySchema = {
  type: "object",
  required: ["token"],
  properties: {
    token: {
      type: "string",
      minLength: 1,
      maxLength: 8192,
      description: "The `token` query parameter of the link",
    },
  },
} as const;

export const magicLinkExchangeResponseSchema = {
  type: "object",
  required: ["caseUrn", "expiresAt"],
  properties: {
    caseUrn: urnOf("case"),
    expiresAt: timestampSchema,
  },
} as const;
