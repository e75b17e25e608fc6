// The wave plans of one process, on a thread of their own (services/hotels/threaded-wave-planner.ts):
// the main thread keeps serving requests while a plan's CPU work runs here. Started by
// wave-planner-thread-start.mjs.
import { parentPort } from "node:worker_threads";
import { planWave, type WaveInput } from "../../src/domain/allocation/wave.js";
import { DomainError } from "../../src/domain/domain-error.js";
import type { PlanAnswer } from "./threaded-wave-planner.js";

const port = parentPort!;
port.on("message", ({ id, input }: { id: number; input: WaveInput }) => {
  let answer: PlanAnswer;
  try {
    answer = { id, plan: planWave(input) };
  } catch (error) {
    answer =
      error instanceof DomainError
        ? { id, refusal: error.toShape() }
        : { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
