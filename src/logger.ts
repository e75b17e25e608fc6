import { AsyncLocalStorage } from "node:async_hooks";
import { type Logger, pino } from "pino";

/** The trace of the request or event being handled, so every log line carries its trace id. */
export const traceContext = new AsyncLocalStorage<{ traceId: string }>();

export function createLogger(level: string, name = "disruption"): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const trace = traceContext.getStore();
      return trace ? { traceId: trace.traceId } : {};
    },
  });
}
