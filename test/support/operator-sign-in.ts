import type { Directory } from "../../src/app/directory.js";
import { type OperatorPasskey, OperatorPasskeys } from "../../src/app/operator-factors/operator-passkeys.js";
import { SignInHistories } from "../../src/app/operator-factors/sign-in-history.js";
import type { OperatorSignIn } from "../../src/identity/operator-login.js";
import {
  NO_RISK_TABLES,
  type SignInRiskSettings,
  signInRiskAssessor,
} from "../../src/identity/sign-in-risk.js";
import type { Clock } from "../../src/runtime/clock.js";
import type { DocumentStore } from "../../src/runtime/document-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";

/** What the operator sign-in reads, over an in-memory document store, for tests of the login decision. */
export function operatorSignIn(
  directory: Directory,
  clock: Clock,
  {
    documents = new MemoryDocumentStore(),
    risk = NO_RISK_TABLES,
  }: { documents?: DocumentStore; risk?: SignInRiskSettings } = {},
): OperatorSignIn {
  return {
    directory,
    clock,
    passkeys: new OperatorPasskeys(documents),
    histories: new SignInHistories(documents),
    assessRisk: signInRiskAssessor(risk),
  };
}

/** A stored passkey (`credential-of-<user>`) whose key no authenticator holds: enrolled, never usable. */
export function storedPasskey(userId: string, tenant: string, at: number): OperatorPasskey {
  return {
    _id: `credential-of-${userId}`,
    tenant,
    userId,
    publicKey: "AAAA",
    counter: 0,
    transports: ["internal"],
    name: "Laptop",
    createdAt: new Date(at).toISOString(),
  };
}
