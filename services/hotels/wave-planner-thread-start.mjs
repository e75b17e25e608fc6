// Starts the wave planning thread (services/hotels/threaded-wave-planner.ts). Its body is TypeScript;
// on Node 20 a worker thread does not take `--import tsx` for its own modules, so the body is loaded
// through tsx's API, which works under any loader of the process (tsx, Vitest, plain Node).
import { tsImport } from "tsx/esm/api";

await tsImport("./wave-planner-thread.ts", import.meta.url);
