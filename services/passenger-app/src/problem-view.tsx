import type { Problem } from "./problem.js";

/** A problem as the passenger reads it: its title and detail, announced to screen readers. */
export function ProblemView({ problem }: { problem: Problem | undefined }) {
  if (!problem) return null;
  return (
    <div class="problem" role="alert">
      <p class="problem-title">{problem.title}</p>
      {problem.detail ? <p>{problem.detail}</p> : null}
    </div>
  );
}
