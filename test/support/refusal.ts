import { DomainError } from "../../src/domain/domain-error.js";

/** The DomainError a domain rule refuses with; any other error is rethrown, no refusal fails the test. */
export function refusal(action: () => unknown): DomainError {
  try {
    action();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError");
}

/** The DomainError an asynchronous domain rule rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError");
}
