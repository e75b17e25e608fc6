import type { WaveInput, WavePlan } from "../../domain/allocation/wave.js";

/**
 * Where a wave's plan (src/domain/allocation/wave.ts) is worked out: on the thread that serves
 * requests, or another. At a hub meltdown (spec 8.2) one plan is 85-200 ms of CPU, and every read
 * arriving on the planning thread meanwhile waits for it. src/main.ts chooses the adapter
 * (WAVE_PLANNER).
 */
export interface WavePlanner {
  plan(input: WaveInput): Promise<WavePlan>;
}
