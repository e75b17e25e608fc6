import { expect } from "vitest";

/** The JSON body of a response that must have `status`; on any other status the failure shows the body. */
export async function json<T = Record<string, any>>(response: Response, status: number): Promise<T> {
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body as T;
}
