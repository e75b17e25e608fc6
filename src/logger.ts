import { type Logger, pino } from "pino";

/** Structured logs; a request's own logger (`ctx.state.log`, a handler's `input.log`) adds its trace id. */
export function createLogger(level: string, name = "disruption"): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
