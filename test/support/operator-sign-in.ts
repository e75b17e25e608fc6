import type { Directory } from "../../src/app/directory.js";
import { OperatorPasskeys } from "../../src/app/operator-factors/operator-passkeys.js";
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
