import { expect } from "vitest";
import type { PassengerLogin } from "../../src/app/cases/passenger-sign-in.js";
import { ProblemError } from "../../src/http/errors.js";
import {
  createPassengerIdentity,
  type PassengerIdentityOptions,
} from "../../src/passenger-identity/passenger-identity.js";

export const ZX = "urn:airline:ZX";
/** The case the passenger tests sign in to. */
export const CASE = "urn:case:5f1c2a8e-0000-4000-8000-000000000001";

/** The ZX passenger site's identity over the test's stores, with a captcha cheap enough to solve in a test. */
export function passengerIdentity(
  stores: Pick<PassengerIdentityOptions, "counters" | "documents" | "clock">,
  onLoginLocked: PassengerIdentityOptions["onLoginLocked"] = async () => {},
) {
  return createPassengerIdentity({
    passengerBaseUrl: "https://zx.passenger.example",
    captchaSecret: "test-captcha-secret",
    captchaComplexity: { algorithm: "SHA-256", cost: 1, counterMin: 1, counterMax: 20 },
    onLoginLocked,
    ...stores,
  });
}

/** The directory's login for the Riveras: PNR ABC123, group g-1 of CASE, an OPEN case. */
export function riveraLogin(overrides: Partial<PassengerLogin> = {}): PassengerLogin {
  return {
    tenant: ZX,
    pnr: "ABC123",
    lastName: "Rivera",
    caseUrn: CASE,
    groupId: "g-1",
    caseStatus: "OPEN",
    ...overrides,
  };
}

/** The ProblemError `promise` rejects with; resolving, or rejecting with anything else, fails the test. */
export async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}
