import { ApiProblem } from "../api.js";

/** An error as the operator reads it: the problem's title and detail, and its trace instance (spec 7). */
export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error : undefined;
  const instance = problem && typeof problem.body.instance === "string" ? problem.body.instance : undefined;
  return (
    <div class="problem" role="alert">
      <strong>{problem ? problem.title : "Something went wrong"}</strong>
      {problem?.detail || !problem ? <p>{problem ? problem.detail : String(error)}</p> : null}
      {instance ? <p class="muted">Trace: {instance}</p> : null}
    </div>
  );
}
