import { useState } from "preact/hooks";

export interface ActionState {
  /** The action running now, by its button's name; null when none. */
  pending: string | null;
  /** What the last action's refusal was (an ApiProblem, or a network error). */
  problem: unknown;
  /** What the last action that went through did, for the status line. */
  done: string | null;
  /**
   * Runs `call` as the action named `name` (the button's name): one at a time, its refusal kept for
   * ProblemMessage, its success said in the status line; answers the call's result, or undefined when it
   * was refused.
   */
  run<T>(name: string, call: () => Promise<T>): Promise<T | undefined>;
  /** Shows a refusal that came outside an action (a read the panel needs). */
  fail(problem: unknown): void;
}

/** The state of a panel's actions: what runs, what the API refused, what went through. */
export function useAction(): ActionState {
  const [pending, setPending] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = async <T>(name: string, call: () => Promise<T>): Promise<T | undefined> => {
    setPending(name);
    setProblem(null);
    setDone(null);
    try {
      const result = await call();
      setDone(`${name}: done`);
      return result;
    } catch (error) {
      setProblem(error);
      return undefined;
    } finally {
      setPending(null);
    }
  };
  return { pending, problem, done, run, fail: setProblem };
}
