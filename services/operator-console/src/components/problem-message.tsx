import { ApiProblem } from "../api.js";

/** Members every RFC 7807 problem has; the others are the problem's own extensions (spec 7). */
const STANDARD_MEMBERS = new Set(["type", "title", "status", "detail", "instance"]);

/**
 * An error as the operator reads it (spec 7), in full: the problem's status, title and detail, its
 * extension members (a lock's `lockedBy` and `expiresInSeconds`, a conflict's current state, the
 * field errors of a refused form), its type and the trace instance support follows.
 */
export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error : undefined;
  const instance = problem && typeof problem.body.instance === "string" ? problem.body.instance : undefined;
  const extensions = problem
    ? Object.entries(problem.body).filter(([member]) => !STANDARD_MEMBERS.has(member))
    : [];
  return (
    <div class="problem" role="alert">
      <strong>
        {problem ? `${problem.status ? `${problem.status} ` : ""}${problem.title}` : "Something went wrong"}
      </strong>
      {problem?.detail || !problem ? <p>{problem ? problem.detail : String(error)}</p> : null}
      {extensions.length > 0 ? (
        <dl class="problem-extensions">
          {extensions.map(([member, value]) => (
            <div key={member}>
              <dt>{member}</dt>
              <dd>
                {typeof value === "string" || typeof value === "number" ? value : JSON.stringify(value)}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {problem && problem.type !== "about:blank" ? <p class="muted">Type: {problem.type}</p> : null}
      {instance ? <p class="muted">Trace: {instance}</p> : null}
    </div>
  );
}
