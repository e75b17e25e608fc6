import { expect } from "vitest";

/** The JSON body of a response that must have `status`; on any other status the failure shows the body. */
export async function json<T = Record<string, any>>(response: Response, status: number): Promise<T> {
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body as T;
}

/** Expects a 400 problem whose field errors name `field` of the request body. */
export async function expectBodyFieldError(response: Response, field: string): Promise<void> {
  const problem = await json<{ errors: { in: string; field: string }[] }>(response, 400);
  expect(problem.errors.length).toBeGreaterThan(0);
  expect(
    problem.errors.some((e) => e.in === "body" && e.field === field),
    JSON.stringify(problem.errors),
  ).toBe(true);
}
