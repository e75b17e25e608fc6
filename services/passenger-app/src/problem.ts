/**
 * Every failure the app shows is an RFC 7807 problem (spec 7): the service's own, or one the app
 * makes for a request that got no answer, so a screen always has a title and a detail to show.
 */
export interface Problem {
  status: number;
  title: string;
  detail?: string;
  /** The last path segment of the problem's `type` (e.g. `offer-already-declined`). */
  code?: string;
}

/** Thrown by the API client; carries the problem to show. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
  }
}

/** The problem of a non-2xx answer: its problem document, else its status line. */
export function problemOf(status: number, statusText: string, body: unknown): Problem {
  const document = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const title = typeof document.title === "string" && document.title !== "" ? document.title : undefined;
  const type = typeof document.type === "string" ? document.type : undefined;
  const problem: Problem = { status, title: title ?? (statusText || `HTTP ${status}`) };
  if (typeof document.detail === "string" && document.detail !== "") problem.detail = document.detail;
  const code = type?.split("/").pop();
  if (code) problem.code = code;
  return problem;
}

/** The problem of a request that got no answer at all (offline, the service down). */
export function unreachable(title: string, detail: string): Problem {
  return { status: 0, title, detail, code: "unreachable" };
}
