import { Worker } from "node:worker_threads";
import type { WavePlanner } from "../../src/app/allocation/wave-planner.js";
import type { WavePlan } from "../../src/domain/allocation/wave.js";
import { DomainError, type DomainErrorShape } from "../../src/domain/domain-error.js";

/** What the thread answers for one plan: the plan, the domain's refusal, or another failure. */
export type PlanAnswer =
  | { id: number; plan: WavePlan }
  | { id: number; refusal: DomainErrorShape }
  | { id: number; error: string };

interface Pending {
  resolve(plan: WavePlan): void;
  reject(error: Error): void;
}

/** A started thread and the plans handed to it, by id. */
interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Plans waves on a worker thread (wave-planner-thread.ts, WAVE_PLANNER=worker): the plan's CPU work
 * runs on another CPU while the main thread answers reads (spec 8.2). Input and plan cross by
 * structured clone (plain data and arrays only), a refusal of the domain as its shape; reading the
 * plan back is the main thread's share, and at a meltdown's size its ranking inputs (about 48,000
 * rows for 150 groups x 4,250 offers) make that about 60% of the plan's own time. One thread, started with the first plan, not keeping the process alive; plans
 * queue to it. A thread that stops or fails fails the plans it holds, and the next plan starts a
 * fresh one.
 */
export function threadedWavePlanner(): WavePlanner & { close(): Promise<void> } {
  let current: Thread | undefined;
  let nextId = 0;
  const thread = (): Thread => {
    if (current) return current;
    const worker = new Worker(new URL("./wave-planner-thread-start.mjs", import.meta.url));
    worker.unref();
    const started: Thread = { worker, pending: new Map() };
    const stopped = (error: Error) => {
      if (current === started) current = undefined;
      failAll(started, error);
    };
    worker.on("message", (answer: PlanAnswer) => {
      const waiting = started.pending.get(answer.id);
      started.pending.delete(answer.id);
      if (!waiting) return;
      if ("plan" in answer) waiting.resolve(answer.plan);
      else if ("refusal" in answer) waiting.reject(DomainError.fromShape(answer.refusal));
      else waiting.reject(new Error(answer.error));
    });
    worker.on("error", stopped);
    worker.on("exit", () => stopped(new Error("the wave planning thread stopped")));
    current = started;
    return started;
  };
  return {
    plan(input) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        const { worker, pending } = thread();
        pending.set(id, { resolve, reject });
        try {
          worker.postMessage({ id, input });
        } catch (error) {
          pending.delete(id);
          throw error;
        }
      });
    },
    async close() {
      const stopping = current;
      current = undefined;
      if (!stopping) return;
      await stopping.worker.terminate();
      failAll(stopping, new Error("the wave planner is closed"));
    },
  };
}

/** A thread's plans fail with it; the plans of a thread started since are not its. */
function failAll(thread: Thread, error: Error): void {
  for (const waiting of thread.pending.values()) waiting.reject(error);
  thread.pending.clear();
}
