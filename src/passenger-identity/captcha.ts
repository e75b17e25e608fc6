/**
 * The edge-issued challenge PNR login needs on every attempt (spec 5.2, 8.1): an ALTCHA
 * proof-of-work challenge, signed with the service's HMAC secret so any instance can check it,
 * solved by the passenger's browser, and accepted once.
 *
 * altcha-lib checks its own `expiresAt` against the system time, so the expiry is carried in the
 * signed `data` instead and checked against the injected Clock: tests move time, production reads
 * the same clock as everything else.
 */
import { createHmac } from "node:crypto";
import {
  type Challenge,
  createChallenge,
  type DeriveKeyFunction,
  randomInt,
  type Solution,
  solveChallenge,
  verifySolution,
} from "altcha-lib";
import { deriveKey as pbkdf2 } from "altcha-lib/algorithms/pbkdf2";
import { deriveKey as sha } from "altcha-lib/algorithms/sha";
import type { Clock } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";

export type CaptchaAlgorithm =
  | "SHA-256"
  | "SHA-384"
  | "SHA-512"
  | "PBKDF2/SHA-256"
  | "PBKDF2/SHA-384"
  | "PBKDF2/SHA-512";

/**
 * How much work a challenge asks for: the browser derives a key `cost` times per try and tries
 * counters from 0 up to the one picked in [counterMin, counterMax].
 */
export interface CaptchaComplexity {
  algorithm: CaptchaAlgorithm;
  cost: number;
  counterMin: number;
  counterMax: number;
}

/** The figures altcha-lib recommends: about a second of work in a phone browser. */
export const DEFAULT_CAPTCHA_COMPLEXITY: CaptchaComplexity = {
  algorithm: "PBKDF2/SHA-256",
  cost: 5_000,
  counterMin: 5_000,
  counterMax: 10_000,
};

export const DEFAULT_CAPTCHA_TTL_MS = 5 * 60 * 1000;

export interface CaptchaOptions {
  /** Signs challenges; every instance serving the passenger host must share it. */
  hmacSecret: string;
  counters: CounterStore;
  clock: Clock;
  complexity?: CaptchaComplexity;
  /** How long a challenge may be solved and submitted; 5 minutes unless told. */
  ttlMs?: number;
}

export type CaptchaRefusal = "missing" | "malformed" | "expired" | "reused" | "unsolved";

export type CaptchaVerdict = { verified: true } | { verified: false; refusal: CaptchaRefusal };

/** The challenge JSON the ALTCHA widget fetches; the expiry is in `parameters.data.expiresAt` (ms). */
export type CaptchaChallenge = Challenge & { signature: string };

const USED_KEY_PREFIX = "captcha-used:";

export class Captcha {
  private readonly complexity: CaptchaComplexity;
  private readonly ttlMs: number;
  private readonly deriveKey: DeriveKeyFunction;
  /** Lets the server check a solution by one HMAC instead of repeating the work. */
  private readonly keySignatureSecret: string;

  constructor(private readonly options: CaptchaOptions) {
    if (options.hmacSecret === "") throw new Error("The captcha HMAC secret must not be empty");
    this.complexity = options.complexity ?? DEFAULT_CAPTCHA_COMPLEXITY;
    this.ttlMs = options.ttlMs ?? DEFAULT_CAPTCHA_TTL_MS;
    this.deriveKey = deriveKeyOf(this.complexity.algorithm);
    this.keySignatureSecret = createHmac("sha256", options.hmacSecret)
      .update("altcha-key-signature")
      .digest("hex");
  }

  async issueChallenge(): Promise<CaptchaChallenge> {
    const { algorithm, cost, counterMin, counterMax } = this.complexity;
    const challenge = await createChallenge({
      algorithm,
      cost,
      counter: randomInt(counterMax, counterMin),
      deriveKey: this.deriveKey,
      data: { expiresAt: this.options.clock.now() + this.ttlMs },
      hmacSignatureSecret: this.options.hmacSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
    // Given a signature secret, altcha-lib always signs.
    return challenge as CaptchaChallenge;
  }

  /**
   * Checks a widget payload (base64 of `{challenge, solution}`) and uses it up: the same payload,
   * or another solution of the same challenge, is refused afterwards.
   */
  async verifySolution(payload: string): Promise<CaptchaVerdict> {
    if (payload.trim() === "") return refused("missing");
    const submitted = parsePayload(payload);
    if (!submitted) return refused("malformed");
    const { challenge, solution } = submitted;
    const result = await verifySolution({
      challenge,
      solution,
      deriveKey: this.deriveKey,
      hmacSignatureSecret: this.options.hmacSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    }).catch(() => undefined);
    if (result?.invalidSignature !== false) return refused("malformed");
    // Only a challenge we signed reaches here, so its expiry can be trusted.
    const expiresAt = challenge.parameters.data?.expiresAt;
    const now = this.options.clock.now();
    if (typeof expiresAt !== "number" || expiresAt <= now) return refused("expired");
    if (!result.verified) return refused("unsolved");
    const firstUse = await this.options.counters.setIfAbsent(
      USED_KEY_PREFIX + challenge.signature,
      "1",
      expiresAt - now,
    );
    return firstUse ? { verified: true } : refused("reused");
  }
}

/** The key derivation a challenge's `algorithm` names. */
function deriveKeyOf(algorithm: string): DeriveKeyFunction {
  return algorithm.startsWith("PBKDF2/") ? pbkdf2 : sha;
}

/**
 * Solves a challenge as the ALTCHA widget in a passenger's browser does, and encodes it as PNR
 * login's `captcha` field: base64 of `{challenge, solution}`. For scripts and tests; the service
 * only verifies.
 */
export async function solveCaptcha(challenge: CaptchaChallenge): Promise<string> {
  const solution = await solveChallenge({
    challenge,
    deriveKey: deriveKeyOf(challenge.parameters.algorithm),
  });
  if (!solution) throw new Error("The captcha challenge has no solution in its counter range");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

function refused(refusal: CaptchaRefusal): CaptchaVerdict {
  return { verified: false, refusal };
}

interface SubmittedPayload {
  challenge: CaptchaChallenge;
  solution: Solution;
}

function parsePayload(payload: string): SubmittedPayload | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
  const candidate = decoded as Partial<SubmittedPayload> | null;
  const challenge = candidate?.challenge;
  const solution = candidate?.solution;
  if (
    typeof challenge !== "object" ||
    challenge === null ||
    typeof challenge.signature !== "string" ||
    typeof challenge.parameters !== "object" ||
    challenge.parameters === null ||
    typeof solution !== "object" ||
    solution === null
  ) {
    return undefined;
  }
  return { challenge, solution };
}
