import type { WavePlanner } from "../../src/app/allocation/wave-planner.js";
import { planWave } from "../../src/domain/allocation/wave.js";

/** Plans on the calling thread (WAVE_PLANNER=in-process): nothing is copied, nothing else runs meanwhile. */
export const IN_PROCESS_WAVE_PLANNER: WavePlanner = {
  plan: async (input) => planWave(input),
};
