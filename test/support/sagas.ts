import type { DependencyContainer } from "tsyringe";
import { CompensationSteps } from "../../src/app/sub-cases/compensation-steps.js";
import type { SubCaseSagaSteps } from "../../src/workflows/sub-case-saga/model.js";

/**
 * For tests that watch a compensation request itself (202, PROCESSING, subcase.processing, the
 * events it fans out): every sub-case saga run stands down at its first step, so the sub-case stays
 * PROCESSING as the request left it. The saga's own paths are tested in
 * test/e2e/sub-case-saga.test.ts and test/contract/sub-case-saga.suite.ts.
 */
export function standDownSubCaseSagas(container: DependencyContainer): void {
  const standingDown: Pick<SubCaseSagaSteps, "begin"> = { begin: async () => ({ current: false }) };
  container.register(CompensationSteps, { useValue: standingDown as CompensationSteps });
}
