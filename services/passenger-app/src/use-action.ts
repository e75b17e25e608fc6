import { useState } from "preact/hooks";
import { type Problem, ProblemError } from "./problem.js";

/**
 * A button's action: busy while it runs, and the problem it ended with (shown beside it, never a
 * blank screen).
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const run = async (...args: A) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await action(...args);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, problem };
}

export function asProblem(error: unknown): Problem {
  if (error instanceof ProblemError) return error.problem;
  return { status: 0, title: error instanceof Error ? error.message : String(error) };
}
